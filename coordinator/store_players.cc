// The store service's player calls (docs/players.md): RecordPlay with a
// player, an answer or a play_id (the family judges the answer; the store
// rates and records atomically), GetPlayer, NextPuzzle and PuzzleOfTheDay.
// The rating model is Glicko-2 (ratings/), applied by the store under its
// lock.
#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/rpc_status.h"
#include "coordinator/player_limits.h"
#include "coordinator/services.h"
#include "coordinator/utc_date.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {
namespace {

constexpr size_t kMaxPlayIdBytes = 128;
constexpr double kMaxOffset = 1000;
// An answer is stored with its play_id; the largest family's answer (a
// nonogram grid) is a few KB.
constexpr size_t kMaxAnswerBytes = 64 << 10;

Status CheckName(std::string_view what, std::string_view value, size_t max_bytes) {
  if (value.empty()) return Status::InvalidArgument(fmt::format("{} must not be empty", what));
  if (value.size() > max_bytes) {
    return Status::InvalidArgument(
        fmt::format("{} must be at most {} bytes, got {}", what, max_bytes, value.size()));
  }
  if (value.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument(fmt::format("{} must not contain a NUL byte", what));
  }
  return Status::Ok();
}

Status CheckFamily(std::string_view family) {
  if (family.empty()) return Status::InvalidArgument("family must not be empty");
  if (auto f = puzzles::FindFamily(family); !f.ok())
    return Status::InvalidArgument(f.status().message());
  return Status::Ok();
}

// What the family made of an answer.
struct Judgement {
  bool solved = false;
  std::optional<storage::PlayScore> score;  // families that score answers
  foundry::v1::Puzzle record;               // the puzzle as judged
};

// Whether `answer` solves puzzle `id`, by the puzzle's family, and its score
// when the family scores answers.
Result<Judgement> Judge(storage::Store& store, const std::string& id, std::string_view answer) {
  auto record = store.GetPuzzleWithoutPlays(id);
  if (!record.ok()) return record.status();
  auto family = puzzles::FindFamily(record->family());
  if (!family.ok()) {
    return Status::FailedPrecondition(fmt::format(
        "puzzle {} is of family '{}', which this build cannot judge", id, record->family()));
  }
  const nlohmann::json puzzle = nlohmann::json::parse(record->puzzle_json(), nullptr, false);
  const nlohmann::json solution = nlohmann::json::parse(record->solution_json(), nullptr, false);
  if (puzzle.is_discarded() || solution.is_discarded()) {
    return Status::DataLoss(fmt::format("puzzle {} has a stored record that is not JSON", id));
  }
  Result<bool> verdict = (*family)->CheckAnswer(puzzle, solution, answer);
  if (!verdict.ok()) {
    return Status::InvalidArgument(fmt::format("answer: {}", verdict.status().message()));
  }
  Result<std::optional<puzzles::AnswerScore>> score =
      (*family)->ScoreAnswer(puzzle, solution, answer);
  if (!score.ok()) {
    return Status::InvalidArgument(fmt::format("answer: {}", score.status().message()));
  }
  Judgement j;
  j.solved = *verdict;
  j.record = std::move(*record);
  if (*score) {
    j.score =
        storage::PlayScore{(*score)->score, (*score)->target, (*score)->greedy, (*score)->best};
  }
  return j;
}

// The days whose puzzle of the day counts as served to every player: the
// play's UTC day, and the day before (a player who opened it before
// midnight UTC).
std::vector<std::string> DailyDays(std::chrono::system_clock::time_point now) {
  std::vector<std::string> days;
  for (auto when : {now, now - std::chrono::hours(24)}) {
    if (Result<std::string> day = UtcDay("", when); day.ok()) days.push_back(*day);
  }
  return days;
}

}  // namespace

grpc::Status PuzzleStoreServiceImpl::RecordPlayerPlay(const foundry::v1::RecordPlayRequest& req,
                                                      foundry::v1::RecordPlayResponse* resp) {
  storage::PlayerPlay play;
  play.puzzle_id = req.id();
  play.seconds = req.seconds();
  if (!req.player_id().empty()) {
    if (Status s = CheckName("player_id", req.player_id(), kMaxPlayerIdBytes); !s.ok())
      return ToGrpc(s);
    play.player_id = req.player_id();
  }
  if (!req.play_id().empty()) {
    if (Status s = CheckName("play_id", req.play_id(), kMaxPlayIdBytes); !s.ok()) return ToGrpc(s);
    play.play_id = req.play_id();
  }
  if (req.has_answer()) {
    if (req.answer().size() > kMaxAnswerBytes) {
      return ToGrpc(Status::InvalidArgument(fmt::format("answer must be at most {} bytes, got {}",
                                                        kMaxAnswerBytes, req.answer().size())));
    }
    Result<Judgement> verdict = Judge(store_, req.id(), req.answer());
    if (!verdict.ok()) return ToGrpc(verdict.status());
    play.judged = true;
    play.solved = verdict->solved;
    play.score = verdict->score;
    play.answer = req.answer();
    play.record = std::move(verdict->record);
    if (!play.player_id.empty()) play.daily_days = DailyDays(std::chrono::system_clock::now());
  } else {
    play.solved = req.solved();
  }
  auto result = store_.RecordPlayerPlay(play, rating_model_);
  if (!result.ok()) return ToGrpc(result.status());
  *resp = std::move(*result);
  if (player_metrics_ != nullptr) player_metrics_->Played(*resp);
  SetObservedLevel(resp->mutable_observed());
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::GetPlayer(grpc::ServerContext* ctx,
                                               const foundry::v1::GetPlayerRequest* req,
                                               foundry::v1::Player* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckName("player_id", req->player_id(), kMaxPlayerIdBytes); !s.ok())
    return ToGrpc(s);
  if (Status s = CheckFamily(req->family()); !s.ok()) return ToGrpc(s);
  auto found = store_.GetPlayer(req->player_id(), req->family());
  if (!found.ok()) return ToGrpc(found.status());
  // A player new to the family gets the figures a first play starts from,
  // so a game server shows a rating without a special case.
  const storage::PlayerFigures f =
      found->value_or(storage::PlayerFigures{rating_model_.new_player, 0, 0});
  resp->set_player_id(req->player_id());
  resp->set_family(req->family());
  resp->set_rating(f.rating.rating);
  resp->set_deviation(f.rating.deviation);
  resp->set_volatility(f.rating.volatility);
  resp->set_plays(f.plays);
  resp->set_solves(f.solves);
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::NextPuzzle(grpc::ServerContext* ctx,
                                                const foundry::v1::NextPuzzleRequest* req,
                                                foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckName("player_id", req->player_id(), kMaxPlayerIdBytes); !s.ok())
    return ToGrpc(s);
  if (Status s = CheckFamily(req->family()); !s.ok()) return ToGrpc(s);
  if (!std::isfinite(req->offset()) || std::abs(req->offset()) > kMaxOffset) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("offset must be -{0}..{0}, got {1}", kMaxOffset, req->offset())));
  }
  auto found = store_.GetPlayer(req->player_id(), req->family());
  if (!found.ok()) return ToGrpc(found.status());
  const double rating =
      found->has_value() ? (*found)->rating.rating : rating_model_.new_player.rating;
  auto puzzle =
      store_.NextPuzzle(req->player_id(), req->family(), rating + req->offset(), rating_model_);
  if (player_metrics_ != nullptr) {
    player_metrics_->NextPuzzle(puzzle.status().code() == Status::Code::kResourceExhausted);
  }
  if (!puzzle.ok()) return ToGrpc(puzzle.status());
  *resp = std::move(*puzzle);
  // The player is to solve it: the solution stays on the server, which
  // judges the answer (RecordPlay with `answer`).
  resp->clear_solution_json();
  SetObservedLevel(resp->mutable_observed());
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::PuzzleOfTheDay(grpc::ServerContext* ctx,
                                                    const foundry::v1::PuzzleOfTheDayRequest* req,
                                                    foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFamily(req->family()); !s.ok()) return ToGrpc(s);
  Result<std::string> day = UtcDay(req->date(), std::chrono::system_clock::now());
  if (!day.ok()) return ToGrpc(day.status());
  auto puzzle = store_.DailyPuzzle(req->family(), *day);
  if (!puzzle.ok()) return ToGrpc(puzzle.status());
  *resp = std::move(*puzzle);
  // Everyone plays it: the answer is judged by the server, as for NextPuzzle.
  resp->clear_solution_json();
  SetObservedLevel(resp->mutable_observed());
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreCallbackService::GetPlayer(grpc::ServerContext* ctx,
                                                   const foundry::v1::GetPlayerRequest* req,
                                                   foundry::v1::Player* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  return handlers_.GetPlayer(nullptr, req, resp);
}

grpc::Status PuzzleStoreCallbackService::NextPuzzle(grpc::ServerContext* ctx,
                                                    const foundry::v1::NextPuzzleRequest* req,
                                                    foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  return handlers_.NextPuzzle(nullptr, req, resp);
}

grpc::Status PuzzleStoreCallbackService::PuzzleOfTheDay(
    grpc::ServerContext* ctx, const foundry::v1::PuzzleOfTheDayRequest* req,
    foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  return handlers_.PuzzleOfTheDay(nullptr, req, resp);
}

grpc::Status PuzzleStoreCallbackService::RefitRatings(grpc::ServerContext* ctx,
                                                      const foundry::v1::RefitRatingsRequest* req,
                                                      foundry::v1::RefitRatingsResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  return handlers_.RefitRatings(nullptr, req, resp);
}

}  // namespace foundry::coordinator
