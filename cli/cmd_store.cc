// foundry sample / stats / import: the store service from the command line,
// against a store directory (--db) or a coordinator (--coordinator).
#include <algorithm>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/filter_flags.h"
#include "cli/input_file.h"
#include "cli/progress.h"
#include "cli/puzzle_json.h"
#include "cli/puzzle_source.h"
#include "coordinator/message_limits.h"
#include "puzzles/family.h"

namespace foundry::cli {
namespace {

struct SampleFlags {
  SourceFlags source;
  FilterFlags filter;
  uint32_t count = 1;
  std::string exclude_file;
  uint64_t seed = 0;
  std::string format = "jsonl";
  bool no_solution = false;
};

// Ids to exclude: one per line, either a bare id or a JSON object with "id"
// (so a previous `foundry sample` output works as is).
Result<std::vector<std::string>> ReadIds(const std::string& path) {
  auto opened = OpenInputFile(path);
  if (!opened.ok()) return opened.status();
  std::ifstream& in = *opened;
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    if (IsBlankLine(line)) continue;
    if (line.front() == '{') {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("id") && j["id"].is_string()) ids.push_back(j["id"]);
      continue;
    }
    ids.push_back(line);
  }
  return ids;
}

int Sample(const SampleFlags& f) {
  auto filter = ToFilter(f.filter);
  if (!filter.ok()) return Fail(filter.status().message());
  foundry::v1::SampleRequest req;
  *req.mutable_filter() = *filter;
  req.set_count(f.count);
  req.set_seed(f.seed);
  req.set_include_solution(!f.no_solution);
  if (!f.exclude_file.empty()) {
    auto ids = ReadIds(f.exclude_file);
    if (!ids.ok()) return Fail(ids.status().message());
    for (auto& id : *ids) req.add_exclude_ids(std::move(id));
  }
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto resp = (*source)->Sample(req);
  if (!resp.ok()) return Fail(resp.status().message());
  for (const auto& p : resp->puzzles()) {
    if (f.format == "ids") {
      fmt::print("{}\n", p.id());
    } else if (f.format == "text") {
      fmt::print("{}\n", PuzzleToText(p));
    } else {
      fmt::print("{}\n", PuzzleToJson(p).dump());
    }
  }
  if (resp->puzzles_size() < static_cast<int>(f.count)) {
    fmt::print(stderr, "foundry: only {} puzzles match (asked for {})\n", resp->puzzles_size(),
               f.count);
  }
  return 0;
}

struct StatsFlags {
  SourceFlags source;
  bool json = false;
};

int Stats(const StatsFlags& f) {
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto stats = (*source)->Stats();
  if (!stats.ok()) return Fail(stats.status().message());
  if (f.json) {
    nlohmann::json j;
    j["puzzles"] = stats->puzzles();
    j["plays_recorded"] = stats->plays_recorded();
    j["levels"] = nlohmann::json::array();
    for (const auto& l : stats->levels()) {
      j["levels"].push_back(
          {{"family", l.family()}, {"level", l.level()}, {"puzzles", l.puzzles()}});
    }
    j["campaigns"] = nlohmann::json::array();
    for (const auto& c : stats->campaigns()) {
      j["campaigns"].push_back({{"id", c.id()},
                                {"family", c.spec().family()},
                                {"state", foundry::v1::CampaignState_Name(c.state())},
                                {"stored", c.counters().stored()},
                                {"count", c.spec().count()},
                                {"message", c.message()}});
    }
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  // One row per family, one column per level.
  std::map<std::string, std::map<std::string, uint64_t>> table;
  for (const auto& l : stats->levels()) table[l.family()][l.level()] += l.puzzles();
  fmt::print("{} puzzles stored; {} plays recorded since the store was opened\n\n",
             Grouped(stats->puzzles()), Grouped(stats->plays_recorded()));
  fmt::print("{:<16}", "family");
  for (std::string_view level : puzzles::kLevels) fmt::print("{:>12}", level);
  fmt::print("{:>12}\n", "total");
  for (const auto& [family, levels] : table) {
    uint64_t total = 0;
    fmt::print("{:<16}", family);
    for (std::string_view level : puzzles::kLevels) {
      auto it = levels.find(std::string(level));
      const uint64_t n = it == levels.end() ? 0 : it->second;
      total += n;
      fmt::print("{:>12}", Grouped(n));
    }
    fmt::print("{:>12}\n", Grouped(total));
  }
  fmt::print("\n{} campaigns\n", stats->campaigns_size());
  for (const auto& c : stats->campaigns()) {
    std::string state = foundry::v1::CampaignState_Name(c.state());
    state = state.substr(state.rfind('_') + 1);
    std::transform(state.begin(), state.end(), state.begin(), ::tolower);
    fmt::print("{}  {:<14} {:<10} {:>10}/{:<10} {}\n", c.id(), c.spec().family(), state,
               c.counters().stored(), c.spec().count(), c.message());
  }
  return 0;
}

struct ImportFlags {
  SourceFlags source;
  std::string file;
};

int Import(const ImportFlags& f) {
  auto opened = OpenInputFile(f.file);
  if (!opened.ok()) return Fail(opened.status().message());
  std::ifstream& in = *opened;
  std::vector<foundry::v1::ImportRequest> items;
  std::vector<std::pair<uint64_t, std::string>> rejected;
  std::string line;
  uint64_t number = 0, lines = 0;
  while (std::getline(in, line)) {
    ++number;
    if (IsBlankLine(line)) continue;
    ++lines;
    auto p = PuzzleFromJsonLine(line);
    if (!p.ok()) {
      rejected.emplace_back(number, p.status().message());
      continue;
    }
    foundry::v1::ImportRequest item;
    *item.mutable_puzzle() = std::move(*p);
    item.set_line(number);
    // One puzzle is one message to a coordinator, which would end the
    // whole import at a larger one; the same limit holds for --db.
    if (item.ByteSizeLong() > coordinator::kMaxReceiveBytes) {
      rejected.emplace_back(
          number,
          fmt::format("{:.1f} MiB, more than the {} MiB a puzzle may take in an import",
                      item.ByteSizeLong() / 1048576.0, coordinator::kMaxReceiveBytes >> 20));
      continue;
    }
    items.push_back(std::move(item));
  }
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto report = (*source)->Import(items);
  if (!report.ok()) return Fail(report.status().message());
  for (const auto& r : report->rejected()) rejected.emplace_back(r.line(), r.reason());
  std::sort(rejected.begin(), rejected.end());
  for (const auto& [at, reason] : rejected) fmt::print("{}:{}: rejected: {}\n", f.file, at, reason);
  fmt::print("{} lines: {} stored, {} already stored, {} rejected", lines, report->stored(),
             report->duplicates(), rejected.size());
  if (report->campaign_ids_size() > 0) {
    fmt::print(" (campaign {})", fmt::join(report->campaign_ids(), ", "));
  }
  fmt::print("\n");
  // Good lines are stored either way; the exit code tells a script that some
  // were not.
  return rejected.empty() ? 0 : 1;
}

}  // namespace

void AddSampleCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<SampleFlags>();
  CLI::App* cmd =
      app.add_subcommand("sample", "Print random puzzles (uniform over the matching ones)");
  AddSourceFlags(*cmd, f->source);
  AddFilterFlags(*cmd, f->filter);
  cmd->add_option("--count,-n", f->count, "How many distinct puzzles (1..1000)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--exclude-file", f->exclude_file,
                  "Never return the ids in this file (one per line, or JSON Lines with \"id\")");
  cmd->add_option("--seed", f->seed, "Repeatable draw (0: random)");
  cmd->add_option("--format", f->format, "jsonl, text or ids")
      ->check(CLI::IsMember({"jsonl", "text", "ids"}));
  cmd->add_flag("--no-solution", f->no_solution, "Leave the solutions out");
  cmd->callback([f, &exit_code] { exit_code = Sample(*f); });
}

void AddStatsCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<StatsFlags>();
  CLI::App* cmd = app.add_subcommand("stats", "Puzzles by family and level, and the campaigns");
  AddSourceFlags(*cmd, f->source);
  cmd->add_flag("--json", f->json, "As JSON");
  cmd->callback([f, &exit_code] { exit_code = Stats(*f); });
}

void AddImportCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<ImportFlags>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Verify and store the puzzles of a JSON Lines export (bad lines are reported)");
  cmd->add_option("file", f->file, "A file written by `foundry export --format jsonl`")->required();
  AddSourceFlags(*cmd, f->source);
  cmd->callback([f, &exit_code] { exit_code = Import(*f); });
}

}  // namespace foundry::cli
