// Routes of the store and puzzle pages: the family x level table, browsing,
// one puzzle drawn by its family, its solution, and play.
#include <cstdlib>

#include <fmt/format.h>

#include "common/quote.h"
#include "console/api_json.h"
#include "console/console_api.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::console {
namespace {

const char* const kLevels[] = {"easy", "medium", "hard", "expert"};

// A stored puzzle with its family and parsed statement (and solution).
struct Loaded {
  foundry::v1::Puzzle record;
  const puzzles::Family* family = nullptr;
  nlohmann::json puzzle, solution;
};

Result<Loaded> Load(ConsoleApi& api, const Session& s, const std::string& id, bool with_solution) {
  FOUNDRY_RETURN_IF_ERROR(puzzles::CheckPuzzleId(id));
  foundry::v1::GetPuzzleRequest req;
  req.set_id(id);
  req.set_include_solution(with_solution);
  Loaded out;
  grpc::Status st = api.link.store().GetPuzzle(api.link.Context(s.token).get(), req, &out.record);
  if (!st.ok()) return LinkError(st, api.link.address());
  auto family = puzzles::FindFamily(out.record.family());
  if (!family.ok()) {
    return Status::FailedPrecondition(
        fmt::format("puzzle {} is of family '{}', which this console's build does not have", id,
                    out.record.family()));
  }
  out.family = *family;
  out.puzzle = nlohmann::json::parse(out.record.puzzle_json(), nullptr, false);
  if (with_solution)
    out.solution = nlohmann::json::parse(out.record.solution_json(), nullptr, false);
  if (out.puzzle.is_discarded() || out.solution.is_discarded()) {
    return Status::DataLoss(fmt::format("puzzle {} has a stored record that is not JSON", id));
  }
  return out;
}

void Levels(ConsoleApi& api, httplib::Response& res, const Session& s) {
  foundry::v1::StatsResponse stats;
  grpc::Status st = api.link.store().GetStats(api.link.Context(s.token).get(), {}, &stats);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  std::map<std::string, std::map<std::string, uint64_t>> table;
  for (const auto& l : stats.levels()) table[l.family()][l.level()] += l.puzzles();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [family, counts] : table) {
    nlohmann::json by_level = nlohmann::json::object();
    uint64_t total = 0;
    for (const char* level : kLevels) {
      const uint64_t n = counts.count(level) ? counts.at(level) : 0;
      by_level[level] = n;
      total += n;
    }
    rows.push_back({{"family", family}, {"counts", std::move(by_level)}, {"total", total}});
  }
  SendJson(res, {{"total", stats.puzzles()}, {"levels", kLevels}, {"rows", std::move(rows)}});
}

void Query(ConsoleApi& api, const httplib::Request& http_req, httplib::Response& res,
           const Session& s) {
  foundry::v1::QueryRequest req;
  auto* f = req.mutable_filter();
  f->set_family(http_req.get_param_value("family"));
  const std::string level = http_req.get_param_value("level");
  f->set_level(level == "any" ? "" : level);
  f->set_campaign_id(http_req.get_param_value("campaign"));
  auto lo = ParseScore("min_score", http_req.get_param_value("min_score"));
  if (!lo.ok()) return SendError(res, lo.status());
  auto hi = ParseScore("max_score", http_req.get_param_value("max_score"));
  if (!hi.ok()) return SendError(res, hi.status());
  if (*lo || *hi) {
    f->set_has_score_range(true);
    f->set_min_score(lo->value_or(0.0));
    f->set_max_score(hi->value_or(1.0));
  }
  const std::string size = http_req.get_param_value("page_size");
  if (!size.empty()) {
    char* end = nullptr;
    const long n = std::strtol(size.c_str(), &end, 10);
    if (end != size.c_str() + size.size() || n < 1 || n > 1000) {
      return SendError(res, 400,
                       fmt::format("page_size must be 1..1000, got '{}'", QuoteInput(size)));
    }
    req.set_page_size(static_cast<uint32_t>(n));
  } else {
    req.set_page_size(50);
  }
  req.set_page_token(http_req.get_param_value("page_token"));
  foundry::v1::QueryResponse out;
  grpc::Status st = api.link.store().QueryPuzzles(api.link.Context(s.token).get(), req, &out);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  nlohmann::json puzzles = nlohmann::json::array();
  for (const auto& p : out.puzzles()) puzzles.push_back(PuzzleRowJson(p));
  SendJson(res, {{"puzzles", std::move(puzzles)}, {"next_page_token", out.next_page_token()}});
}

void Puzzle(ConsoleApi& api, const std::string& id, httplib::Response& res, const Session& s) {
  auto loaded = Load(api, s, id, false);
  if (!loaded.ok()) return SendError(res, loaded.status());
  auto view = PuzzleViewJson(loaded->record);
  if (!view.ok()) return SendError(res, view.status());
  SendJson(res, *view);
}

void Svg(ConsoleApi& api, const std::string& id, httplib::Response& res, const Session& s) {
  auto loaded = Load(api, s, id, false);
  if (!loaded.ok()) return SendError(res, loaded.status());
  res.set_header("Cache-Control", "private, max-age=3600");
  // Even if a drawing carried a script, an SVG served as an image with this
  // policy cannot run it.
  res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
  res.set_content(loaded->family->RenderSvg(loaded->puzzle, nullptr), "image/svg+xml");
}

void Solution(ConsoleApi& api, const std::string& id, httplib::Response& res, const Session& s) {
  // A puzzle served to this session's player is answered first: the
  // solution then comes with the result (routes_players.cc).
  if (s.desk && s.desk->Unplayed(id)) {
    return SendError(res, 409,
                     fmt::format("puzzle {} is your open round as player '{}': answer it first "
                                 "(the solution is shown after a wrong answer)",
                                 id, s.desk->Find(id)->player));
  }
  auto loaded = Load(api, s, id, true);
  if (!loaded.ok()) return SendError(res, loaded.status());
  SendJson(res, {{"answer", loaded->family->FormatAnswer(loaded->puzzle, loaded->solution)}});
}

void Play(ConsoleApi& api, const std::string& id, const httplib::Request& http_req,
          httplib::Response& res, const Session& s) {
  auto body = JsonBody(http_req);
  if (!body.ok()) return SendError(res, body.status());
  auto loaded = Load(api, s, id, true);
  if (!loaded.ok()) return SendError(res, loaded.status());
  const std::string answer = FieldText(*body, "answer");
  auto right = loaded->family->CheckAnswer(loaded->puzzle, loaded->solution, answer);
  if (!right.ok()) return SendError(res, right.status());  // unreadable: nothing recorded
  auto seconds = PlaySeconds(*body);
  if (!seconds.ok()) return SendError(res, seconds.status());
  foundry::v1::RecordPlayRequest req;
  req.set_id(id);
  req.set_solved(*right);
  req.set_seconds(*seconds);
  foundry::v1::RecordPlayResponse out;
  grpc::Status st = api.link.store().RecordPlay(api.link.Context(s.token).get(), req, &out);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  SendJson(res, {{"correct", *right},
                 {"plays", PlaysJson(out.plays())},
                 {"observed", ObservedJson(out.observed())}});
}

}  // namespace

Result<nlohmann::json> PuzzleViewJson(const foundry::v1::Puzzle& r) {
  auto family = puzzles::FindFamily(r.family());
  if (!family.ok()) {
    return Status::FailedPrecondition(
        fmt::format("puzzle {} is of family '{}', which this console's build does not have", r.id(),
                    r.family()));
  }
  const nlohmann::json puzzle = nlohmann::json::parse(r.puzzle_json(), nullptr, false);
  if (puzzle.is_discarded()) {
    return Status::DataLoss(fmt::format("puzzle {} has a stored record that is not JSON", r.id()));
  }
  return nlohmann::json{
      {"id", r.id()},
      {"family", r.family()},
      {"campaign_id", r.campaign_id()},
      {"seed", r.seed()},
      {"index", r.index()},
      {"params", ObjectOrEmpty(r.params_json())},
      {"level", r.difficulty().level()},
      {"score", r.difficulty().score()},
      {"details", ObjectOrEmpty(r.difficulty().details_json())},
      {"created_ms", r.created_unix_ms()},
      {"text", (*family)->RenderText(puzzle)},
      {"prompt", (*family)->AnswerPrompt(puzzle)},
      {"svg_url", fmt::format("/api/puzzles/{}/svg", r.id())},
      {"plays", PlaysJson(r.plays())},
      {"observed", ObservedJson(r.observed())},
  };
}

void AddPuzzleRoutes(httplib::Server& server, ConsoleApi& api) {
  using Req = httplib::Request;
  using Res = httplib::Response;
  server.Get("/api/store/levels",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session& s) { Levels(api, res, s); }));
  server.Get("/api/store/query",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               Query(api, req, res, s);
             }));
  server.Get(R"(/api/puzzles/([^/]+))",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               Puzzle(api, req.matches[1], res, s);
             }));
  server.Get(R"(/api/puzzles/([^/]+)/svg)",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               Svg(api, req.matches[1], res, s);
             }));
  server.Get(R"(/api/puzzles/([^/]+)/solution)",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               Solution(api, req.matches[1], res, s);
             }));
  server.Post(R"(/api/puzzles/([^/]+)/play)",
              Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
                Play(api, req.matches[1], req, res, s);
              }));
}

}  // namespace foundry::console
