// Routes of the Play page (docs/console-api.md, "Players"): the session's
// player name, the next puzzle (NextPuzzle), the puzzle of the day, rated
// plays judged by the store (RecordPlay with the player, the answer and the
// round's play_id), the player's ratings per family and this session's
// history. The rounds and history live in the session's PlayerDesk.
#include <algorithm>

#include <fmt/format.h>

#include "common/unix_time.h"
#include "console/api_json.h"
#include "console/console_api.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::console {
namespace {

// The session's player, or InvalidArgument asking for one.
Result<std::string> PlayerOf(const Session& s) {
  std::string name = s.desk->player();
  if (name.empty()) {
    return Status::InvalidArgument(
        "set a player name first: plays are recorded and rated for a player");
  }
  return name;
}

// A family this console can draw and judge; InvalidArgument naming it (and
// the known ones) otherwise, before any call to the coordinator.
Result<std::string> KnownFamily(const std::string& family) {
  if (family.empty()) return Status::InvalidArgument("choose a family");
  auto f = puzzles::FindFamily(family);
  if (!f.ok()) return Status::InvalidArgument(f.status().message());
  return family;
}

// What a request that opens a round says: its body, the session's player
// and a family this console knows.
struct RoundRequest {
  nlohmann::json body;
  std::string player;
  std::string family;
};

Result<RoundRequest> ReadRoundRequest(const httplib::Request& http_req, const Session& s) {
  auto body = JsonBody(http_req);
  if (!body.ok()) return body.status();
  auto player = PlayerOf(s);
  if (!player.ok()) return player.status();
  auto family = KnownFamily(FieldText(*body, "family"));
  if (!family.ok()) return family.status();
  return RoundRequest{std::move(*body), std::move(*player), std::move(*family)};
}

void PlayerPage(ConsoleApi& api, httplib::Response& res, const Session& s) {
  const std::string name = s.desk->player();
  nlohmann::json ratings = nlohmann::json::array();
  if (!name.empty()) {
    // Every family the coordinator knows, one GetPlayer each: a handful of
    // point reads, made when somebody looks.
    foundry::v1::ListFamiliesResponse families;
    grpc::Status st =
        api.link.campaigns().ListFamilies(api.link.Context(s.token).get(), {}, &families);
    if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
    for (const auto& f : families.families()) {
      foundry::v1::GetPlayerRequest req;
      req.set_player_id(name);
      req.set_family(f.name());
      foundry::v1::Player p;
      st = api.link.store().GetPlayer(api.link.Context(s.token).get(), req, &p);
      if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
      ratings.push_back(PlayerJson(p));
    }
    // The families played most first, then the rest by name.
    std::stable_sort(ratings.begin(), ratings.end(), [](const auto& a, const auto& b) {
      const auto pa = a["plays"].template get<uint64_t>(), pb = b["plays"].template get<uint64_t>();
      if (pa != pb) return pa > pb;
      return a["family"].template get<std::string>() < b["family"].template get<std::string>();
    });
  }
  nlohmann::json history = nlohmann::json::array();
  for (const PlayEntry& e : s.desk->History()) history.push_back(PlayEntryJson(e));
  nlohmann::json rounds = nlohmann::json::array();
  for (const Round& r : s.desk->OpenRounds()) rounds.push_back(RoundJson(r));
  SendJson(res, {{"player", name},
                 {"ratings", std::move(ratings)},
                 {"history", std::move(history)},
                 {"open_rounds", std::move(rounds)}});
}

void SetPlayer(const httplib::Request& req, httplib::Response& res, const Session& s) {
  auto body = JsonBody(req);
  if (!body.ok()) return SendError(res, body.status());
  auto name = PlayerNameFrom(*body);
  if (!name.ok()) return SendError(res, name.status());
  s.desk->SetPlayer(*name);
  SendJson(res, {{"player", *name}});
}

// The answer of a served puzzle: the round and the puzzle as the page shows
// it.
void SendRound(httplib::Response& res, const Round& round, const foundry::v1::Puzzle& record,
               nlohmann::json extra = nlohmann::json::object()) {
  auto view = PuzzleViewJson(record);
  if (!view.ok()) return SendError(res, view.status());
  extra["round"] = RoundJson(round);
  extra["puzzle"] = std::move(*view);
  SendJson(res, extra);
}

void Next(ConsoleApi& api, const httplib::Request& http_req, httplib::Response& res,
          const Session& s) {
  auto in = ReadRoundRequest(http_req, s);
  if (!in.ok()) return SendError(res, in.status());
  const std::string& player = in->player;
  const std::string& family = in->family;
  auto offset = OffsetFrom(in->body);
  if (!offset.ok()) return SendError(res, offset.status());
  foundry::v1::GetPlayerRequest who;
  who.set_player_id(player);
  who.set_family(family);
  foundry::v1::Player before;
  grpc::Status st = api.link.store().GetPlayer(api.link.Context(s.token).get(), who, &before);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  foundry::v1::NextPuzzleRequest req;
  req.set_player_id(player);
  req.set_family(family);
  req.set_offset(*offset);
  foundry::v1::Puzzle record;
  st = api.link.store().NextPuzzle(api.link.Context(s.token).get(), req, &record);
  if (st.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
    // Not "too many requests": the player has had the whole family.
    return SendError(res, 409, st.error_message());
  }
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  Round round;
  round.puzzle_id = record.id();
  round.family = family;
  round.player = player;
  round.source = "next";
  round.offset = *offset;
  SendRound(res, s.desk->Open(std::move(round)), record, {{"player", PlayerJson(before)}});
}

// The puzzle of the day of `family` on `date` ("" is today, UTC, by the
// console's clock, so that the answer names its day).
Result<foundry::v1::Puzzle> Daily(ConsoleApi& api, const Session& s, const std::string& family,
                                  std::string* date) {
  if (date->empty()) *date = UtcDate(NowUnixMs());
  foundry::v1::PuzzleOfTheDayRequest req;
  req.set_family(family);
  req.set_date(*date);
  foundry::v1::Puzzle record;
  grpc::Status st = api.link.store().PuzzleOfTheDay(api.link.Context(s.token).get(), req, &record);
  if (!st.ok()) return LinkError(st, api.link.address());
  return record;
}

void ShowDaily(ConsoleApi& api, const httplib::Request& req, httplib::Response& res,
               const Session& s) {
  auto family = KnownFamily(req.get_param_value("family"));
  if (!family.ok()) return SendError(res, family.status());
  std::string date = req.get_param_value("date");
  auto record = Daily(api, s, *family, &date);
  if (!record.ok()) return SendError(res, record.status());
  auto view = PuzzleViewJson(*record);
  if (!view.ok()) return SendError(res, view.status());
  auto round = s.desk->Find(record->id());
  SendJson(res, {{"date", date},
                 {"family", *family},
                 {"puzzle", std::move(*view)},
                 {"round", round ? RoundJson(*round) : nlohmann::json(nullptr)}});
}

void PlayDaily(ConsoleApi& api, const httplib::Request& http_req, httplib::Response& res,
               const Session& s) {
  auto in = ReadRoundRequest(http_req, s);
  if (!in.ok()) return SendError(res, in.status());
  std::string date = FieldText(in->body, "date");
  auto record = Daily(api, s, in->family, &date);
  if (!record.ok()) return SendError(res, record.status());
  Round round;
  round.puzzle_id = record->id();
  round.family = in->family;
  round.player = in->player;
  round.source = "daily";
  round.date = date;
  SendRound(res, s.desk->Open(std::move(round)), *record);
}

Status NotServed(const std::string& id) {
  return Status::NotFound(fmt::format(
      "puzzle {} was not served to this session's player: take one with Next puzzle or the "
      "puzzle of the day (a puzzle opened by id plays unrated, on its own page)",
      id));
}

void GetRound(const std::string& id, httplib::Response& res, const Session& s) {
  if (Status bad = puzzles::CheckPuzzleId(id); !bad.ok()) return SendError(res, bad);
  auto round = s.desk->Find(id);
  if (!round) return SendError(res, NotServed(id));
  SendJson(res, {{"round", RoundJson(*round)}});
}

// The right answer in the family's form, shown after a wrong one ("" when
// it cannot be had: the result stands without it).
std::string SolutionText(ConsoleApi& api, const Session& s, const std::string& id) {
  foundry::v1::GetPuzzleRequest req;
  req.set_id(id);
  req.set_include_solution(true);
  foundry::v1::Puzzle record;
  if (!api.link.store().GetPuzzle(api.link.Context(s.token).get(), req, &record).ok()) return "";
  auto family = puzzles::FindFamily(record.family());
  const auto puzzle = nlohmann::json::parse(record.puzzle_json(), nullptr, false);
  const auto solution = nlohmann::json::parse(record.solution_json(), nullptr, false);
  if (!family.ok() || puzzle.is_discarded() || solution.is_discarded()) return "";
  return (*family)->FormatAnswer(puzzle, solution);
}

void Play(ConsoleApi& api, const std::string& id, const httplib::Request& http_req,
          httplib::Response& res, const Session& s) {
  if (Status bad = puzzles::CheckPuzzleId(id); !bad.ok()) return SendError(res, bad);
  auto body = JsonBody(http_req);
  if (!body.ok()) return SendError(res, body.status());
  auto round = s.desk->Find(id);
  if (!round) return SendError(res, NotServed(id));
  // Played already (a double click, or a retry after a lost answer): the
  // first result, nothing recorded again.
  if (round->result) return SendJson(res, {{"round", RoundJson(*round)}, {"replayed", true}});
  auto answer = body->find("answer");
  if (answer == body->end() || !answer->is_string()) {
    return SendError(res, 400, "answer must be a string: the text the prompt asks for");
  }
  auto timed = PlaySeconds(*body);
  if (!timed.ok()) return SendError(res, timed.status());
  const double seconds = *timed;
  foundry::v1::RecordPlayRequest req;
  req.set_id(id);
  req.set_player_id(round->player);
  req.set_answer(answer->get<std::string>());
  req.set_play_id(round->play_id);
  req.set_seconds(seconds);
  foundry::v1::RecordPlayResponse out;
  grpc::Status st = api.link.store().RecordPlay(api.link.Context(s.token).get(), req, &out);
  if (st.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
    // Two requests of one round with different answers raced: the store
    // kept the first, which its request has put in the round by now.
    if (auto again = s.desk->Find(id); again && again->result)
      return SendJson(res, {{"round", RoundJson(*again)}, {"replayed", true}});
  }
  // An unreadable answer is the store's INVALID_ARGUMENT ("answer: ..."):
  // nothing is recorded and the player may type again.
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  const PlayEntry entry = PlayEntryFrom(*round, out, seconds, NowUnixMs());
  const std::string solution = entry.solved ? "" : SolutionText(api, s, id);
  auto finished = s.desk->Finish(id, round->play_id, entry, req.answer(), solution);
  Round shown = *round;
  if (finished) {
    shown = *finished;
  } else {  // pushed out of the session by newer rounds meanwhile
    shown.result = entry;
    shown.answer = req.answer();
    shown.solution = solution;
  }
  // Replayed by the store: a request of this round with the same answer was
  // recorded first (the round holds its result, the same as this one).
  SendJson(res, {{"round", RoundJson(shown)},
                 {"replayed", out.replayed()},
                 {"plays", PlaysJson(out.plays())},
                 {"observed", ObservedJson(out.observed())}});
}

}  // namespace

void AddPlayerRoutes(httplib::Server& server, ConsoleApi& api) {
  using Req = httplib::Request;
  using Res = httplib::Response;
  server.Get("/api/player",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session& s) { PlayerPage(api, res, s); }));
  server.Post("/api/player",
              Guard(api, Need::kReader,
                    [](const Req& req, Res& res, const Session& s) { SetPlayer(req, res, s); }));
  server.Post("/api/player/next",
              Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
                Next(api, req, res, s);
              }));
  server.Post("/api/player/daily",
              Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
                PlayDaily(api, req, res, s);
              }));
  server.Get("/api/daily",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               ShowDaily(api, req, res, s);
             }));
  server.Get(R"(/api/player/rounds/([^/]+))",
             Guard(api, Need::kReader, [](const Req& req, Res& res, const Session& s) {
               GetRound(req.matches[1], res, s);
             }));
  server.Post(R"(/api/player/rounds/([^/]+)/play)",
              Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
                Play(api, req.matches[1], req, res, s);
              }));
}

}  // namespace foundry::console
