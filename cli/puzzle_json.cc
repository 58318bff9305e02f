#include "cli/puzzle_json.h"

#include <fmt/format.h>

#include "puzzles/registry.h"

namespace foundry::cli {
namespace {

nlohmann::json ParseOr(const std::string& text, nlohmann::json fallback) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? fallback : j;
}

}  // namespace

nlohmann::json PuzzleToJson(const foundry::v1::Puzzle& p) {
  nlohmann::json j;
  j["id"] = p.id();
  j["family"] = p.family();
  j["campaign"] = p.campaign_id();
  j["seed"] = p.seed();
  j["index"] = p.index();
  j["params"] = ParseOr(p.params_json(), nlohmann::json::object());
  nlohmann::json d = ParseOr(p.difficulty().details_json(), nlohmann::json::object());
  if (!d.is_object()) d = nlohmann::json::object();
  d["level"] = p.difficulty().level();
  d["score"] = p.difficulty().score();
  j["difficulty"] = std::move(d);
  nlohmann::json puzzle = ParseOr(p.puzzle_json(), nullptr);
  j["puzzle"] = puzzle;
  if (!p.solution_json().empty()) j["solution"] = ParseOr(p.solution_json(), nullptr);
  if (p.has_plays()) {
    j["plays"] = {{"solved", p.plays().solved()},
                  {"failed", p.plays().failed()},
                  {"mean_solve_seconds", p.plays().mean_solve_seconds()}};
  }
  if (p.has_observed()) {
    j["observed"] = {{"score", p.observed().score()},
                     {"solve_rate", p.observed().solve_rate()},
                     {"plays", p.observed().plays()},
                     {"level", p.observed().level()}};
  }
  auto family = puzzles::FindFamily(p.family());
  if (family.ok() && !puzzle.is_null()) j["text"] = (*family)->RenderText(puzzle);
  return j;
}

namespace {

// A CSV field: quoted when it holds a comma, quote or line break, with
// quotes doubled (RFC 4180).
std::string CsvField(const std::string& v) {
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace

std::string PuzzleCsvHeader() {
  return "id,family,level,score,observed_score,observed_level,solved,failed,campaign,seed,index,"
         "created_unix_ms,params,puzzle,solution";
}

std::string PuzzleToCsvRow(const foundry::v1::Puzzle& p) {
  const std::vector<std::string> fields = {p.id(),
                                           p.family(),
                                           p.difficulty().level(),
                                           fmt::format("{}", p.difficulty().score()),
                                           fmt::format("{}", p.observed().score()),
                                           p.observed().level(),
                                           std::to_string(p.plays().solved()),
                                           std::to_string(p.plays().failed()),
                                           p.campaign_id(),
                                           std::to_string(p.seed()),
                                           std::to_string(p.index()),
                                           std::to_string(p.created_unix_ms()),
                                           p.params_json(),
                                           p.puzzle_json(),
                                           p.solution_json()};
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) row += ',';
    row += CsvField(fields[i]);
  }
  return row;
}

Result<foundry::v1::Puzzle> PuzzleFromJsonLine(const std::string& line) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument("not a JSON object");
  for (const char* key : {"id", "family", "puzzle", "solution"}) {
    if (!j.contains(key)) return Status::InvalidArgument(fmt::format("missing field '{}'", key));
  }
  if (!j["id"].is_string() || !j["family"].is_string()) {
    return Status::InvalidArgument("fields 'id' and 'family' must be strings");
  }
  foundry::v1::Puzzle p;
  p.set_id(j["id"].get<std::string>());
  p.set_family(j["family"].get<std::string>());
  if (j.contains("campaign") && j["campaign"].is_string()) p.set_campaign_id(j["campaign"]);
  if (j.contains("seed") && j["seed"].is_number_unsigned()) p.set_seed(j["seed"]);
  if (j.contains("index") && j["index"].is_number_unsigned()) p.set_index(j["index"]);
  if (j.contains("params")) p.set_params_json(j["params"].dump());
  if (j.contains("difficulty") && j["difficulty"].is_object()) {
    nlohmann::json d = j["difficulty"];
    if (d.contains("level") && d["level"].is_string())
      p.mutable_difficulty()->set_level(d["level"]);
    if (d.contains("score") && d["score"].is_number())
      p.mutable_difficulty()->set_score(d["score"]);
    d.erase("level");
    d.erase("score");
    p.mutable_difficulty()->set_details_json(d.dump());
  }
  p.set_puzzle_json(j["puzzle"].dump());
  p.set_solution_json(j["solution"].dump());
  return p;
}

std::string PuzzleToText(const foundry::v1::Puzzle& p) {
  std::string head = fmt::format("{} ({}, {}, score {:.2f})\n", p.id(), p.family(),
                                 p.difficulty().level(), p.difficulty().score());
  auto family = puzzles::FindFamily(p.family());
  nlohmann::json puzzle = ParseOr(p.puzzle_json(), nullptr);
  if (!family.ok() || puzzle.is_null()) return head + p.puzzle_json() + "\n";
  std::string text = (*family)->RenderText(puzzle);
  if (!text.empty() && text.back() != '\n') text += '\n';
  return head + text;
}

}  // namespace foundry::cli
