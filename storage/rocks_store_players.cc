// RocksStore's players: judged and idempotent plays, ratings of players and
// puzzles (docs/players.md; the next puzzle for a player is in
// rocks_store_next_puzzle.cc). Keys in player_keys.h, all in the default
// column family.
#include <chrono>
#include <cmath>
#include <mutex>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/observed_difficulty.h"
#include "storage/player_keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;
using foundry::v1::RecordPlayResponse;
namespace pk = player_keys;

namespace {

// What a play_id stands for: the same play_id must come with the same
// puzzle, player and answer (or claim) to be the same play.
std::string Fingerprint(const PlayerPlay& play) {
  std::string fp = play.puzzle_id;
  fp.push_back('\0');
  fp.append(play.player_id);
  fp.push_back('\0');
  if (play.judged) {
    fp.append("a").append(play.answer);
  } else {
    fp.append(play.solved ? "c1" : "c0");
  }
  return fp;
}

void FillPlayer(std::string_view player_id, std::string_view family, const PlayerFigures& f,
                foundry::v1::Player& out) {
  out.set_player_id(std::string(player_id));
  out.set_family(std::string(family));
  out.set_rating(f.rating.rating);
  out.set_deviation(f.rating.deviation);
  out.set_volatility(f.rating.volatility);
  out.set_plays(f.plays);
  out.set_solves(f.solves);
}

}  // namespace

Result<bool> RocksStore::GetMeta(const std::string& key, std::string* value) {
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(kDefault), ToSlice(key), value);
  if (s.IsNotFound()) return false;
  if (!s.ok()) return FromRocks(s, dir_, "cannot read player data");
  return true;
}

Result<RecordPlayResponse> RocksStore::RecordPlayerPlay(const PlayerPlay& play,
                                                        const RatingModel& model) {
  if (!(play.seconds >= 0 && play.seconds <= 86400)) {
    return Status::InvalidArgument("seconds must be between 0 and 86400 (one day)");
  }
  const std::string fingerprint = Fingerprint(play);
  std::lock_guard<std::mutex> lock(players_mu_);
  std::string value;
  if (!play.play_id.empty()) {
    Result<bool> seen = GetMeta(pk::PlayIdKey(play.play_id), &value);
    if (!seen.ok()) return seen.status();
    if (*seen) {
      auto record = pk::DecodePlayIdRecord(value);
      RecordPlayResponse first;
      if (!record ||
          !first.ParseFromArray(record->second.data(), static_cast<int>(record->second.size()))) {
        return Status::DataLoss("store at " + dir_ + ": the record of play_id " + play.play_id +
                                " is unreadable");
      }
      if (record->first != fingerprint) {
        return Status::AlreadyExists("play_id '" + play.play_id +
                                     "' was already recorded for another puzzle, player or answer; "
                                     "a play_id names exactly one play");
      }
      first.set_replayed(true);
      return first;
    }
  }
  Result<Puzzle> puzzle = play.record && play.record->id() == play.puzzle_id
                              ? *play.record
                              : ReadRecord(play.puzzle_id);
  if (!puzzle.ok()) return puzzle.status();
  Result<PlayCounts> counts = GetPlays(play.puzzle_id);
  if (!counts.ok()) return counts.status();
  const std::string& family = puzzle->family();

  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  uint64_t seq = 0;  // the play's record, when it has a player
  if (!play.player_id.empty()) {
    Result<uint64_t> next = NextPlaySeqLocked();
    if (!next.ok()) return next.status();
    seq = *next;
  }

  rocksdb::WriteBatch wb;
  PlayCounts delta;
  (play.solved ? delta.solved : delta.failed) = 1;
  if (play.solved) delta.solve_ms = static_cast<uint64_t>(std::llround(play.seconds * 1000));
  rocksdb::Status s = wb.Merge(cf(kPlays), ToSlice(play.puzzle_id), EncodePlayCounts(delta));

  RecordPlayResponse resp;
  resp.set_solved(play.solved);
  resp.set_judged(play.judged);
  bool first_attempt = false;
  if (!play.player_id.empty()) {
    const std::string attempt = pk::AttemptKey(play.player_id, play.puzzle_id);
    Result<bool> attempted = GetMeta(attempt, &value);
    if (!attempted.ok()) return attempted.status();
    first_attempt = !*attempted;
    if (first_attempt && s.ok()) s = wb.Put(cf(kDefault), attempt, "");
  }
  // Only a puzzle the store chose for the player is rated: one opened by id
  // could be picked to rate a player up (docs/players.md).
  bool may_rate = first_attempt;
  if (play.judged && !play.player_id.empty()) {
    Result<bool> served = ServedLocked(play, family);
    if (!served.ok()) return served.status();
    resp.set_opened_by_id(!*served);
    may_rate = may_rate && (*served || model.rate_unserved);
  }
  if (play.judged) {
    pk::PuzzleRating rating;
    const std::string rating_key = pk::PuzzleRatingKey(play.puzzle_id);
    Result<bool> rated_before = GetMeta(rating_key, &value);
    if (!rated_before.ok()) return rated_before.status();
    if (*rated_before) {
      auto decoded = pk::DecodePuzzleRating(value);
      if (!decoded) {
        return Status::DataLoss("store at " + dir_ + ": the rating of puzzle " + play.puzzle_id +
                                " has a wrong size");
      }
      rating = *decoded;
    } else {
      Result<GradeMapping> mapping = MappingOf(family, model);
      if (!mapping.ok()) return mapping.status();
      rating.rating = model.new_player;
      rating.rating.rating = mapping->Rating(puzzle->difficulty().score());
      rating.rating.deviation = model.new_puzzle_deviation;
    }
    const RatingState puzzle_before = rating.rating;
    (play.solved ? rating.judged_solved : rating.judged_failed) += 1;
    if (!play.player_id.empty()) {
      const std::string player_key = pk::PlayerKey(family, play.player_id);
      Result<bool> known = GetMeta(player_key, &value);
      if (!known.ok()) return known.status();
      PlayerFigures player{model.new_player, 0, 0};
      if (*known) {
        auto decoded = pk::DecodePlayer(value);
        if (!decoded) {
          return Status::DataLoss("store at " + dir_ + ": the record of player " + play.player_id +
                                  " has a wrong size");
        }
        player = *decoded;
      }
      player.plays += 1;
      player.solves += play.solved ? 1 : 0;
      const double player_before = player.rating.rating;
      if (may_rate && model.rate) {
        auto [player_after, puzzle_after] = model.rate(player.rating, rating.rating, play.solved);
        player.rating = player_after;
        rating.rating = puzzle_after;
        resp.set_rated(true);
      }
      resp.set_player_rating_change(player.rating.rating - player_before);
      FillPlayer(play.player_id, family, player, *resp.mutable_player());
      if (s.ok()) s = wb.Put(cf(kDefault), player_key, pk::EncodePlayer(player));
    }
    // The index entry moves with the rating: old key out, new key in, in
    // the same batch as the record, so the index never disagrees with it.
    if (*rated_before && s.ok()) {
      s = wb.Delete(cf(kDefault), pk::ByRatingKey(family, puzzle_before.rating, play.puzzle_id));
    }
    if (s.ok())
      s = wb.Put(cf(kDefault), pk::ByRatingKey(family, rating.rating.rating, play.puzzle_id), "");
    if (s.ok()) s = wb.Put(cf(kDefault), rating_key, pk::EncodePuzzleRating(rating));
    resp.set_puzzle_rating(rating.rating.rating);
    resp.set_puzzle_rating_change(rating.rating.rating - puzzle_before.rating);
    resp.set_judged_plays(rating.judged_solved + rating.judged_failed);
  }
  if (play.judged && play.score && s.ok()) {
    FOUNDRY_RETURN_IF_ERROR(KeepBestLocked(play, seq, now_ms, wb, resp));
  }
  PlayCounts after = *counts;
  after.solved += delta.solved;
  after.failed += delta.failed;
  after.solve_ms += delta.solve_ms;
  SetPlayFields(puzzle->difficulty().score(), after, *puzzle);
  *resp.mutable_plays() = puzzle->plays();
  *resp.mutable_observed() = puzzle->observed();
  if (!play.play_id.empty() && s.ok()) {
    std::string bytes;
    if (!resp.SerializeToString(&bytes)) return Status::Internal("cannot encode a play's result");
    s = wb.Put(cf(kDefault), pk::PlayIdKey(play.play_id),
               pk::EncodePlayIdRecord(fingerprint, bytes));
  }
  if (!s.ok()) return FromRocks(s, dir_, "cannot prepare the play of " + play.puzzle_id);
  if (seq != 0) FOUNDRY_RETURN_IF_ERROR(AddPlayRecordLocked(play, family, seq, now_ms, resp, wb));
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  FOUNDRY_RETURN_IF_ERROR(
      FromRocks(db_->Write(wo, &wb), dir_, "cannot record the play of " + play.puzzle_id));
  if (seq != 0) last_play_seq_ = seq;
  plays_recorded_.fetch_add(1, std::memory_order_relaxed);
  return resp;
}

Result<std::optional<PlayerFigures>> RocksStore::GetPlayer(std::string_view player_id,
                                                           std::string_view family) {
  std::string value;
  Result<bool> known = GetMeta(pk::PlayerKey(family, player_id), &value);
  if (!known.ok()) return known.status();
  if (!*known) return std::optional<PlayerFigures>();
  auto decoded = pk::DecodePlayer(value);
  if (!decoded) {
    return Status::DataLoss("store at " + dir_ + ": the record of player " +
                            std::string(player_id) + " has a wrong size");
  }
  return std::optional<PlayerFigures>(*decoded);
}

}  // namespace foundry::storage
