// foundry verify: re-verify every puzzle of a store or a JSON Lines file with
// the family's independent checker, recompute every id, and look for two
// puzzles with one canonical key. Non-zero exit on any failure.
#include <fstream>
#include <unordered_set>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/puzzle_json.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"
#include "storage/store.h"

namespace foundry::cli {
namespace {

constexpr int kMaxReported = 10;

class Verifier {
 public:
  void Check(const foundry::v1::Puzzle& p, const std::string& where) {
    ++checked_;
    auto family = puzzles::FindFamily(p.family());
    if (!family.ok()) return Report(where, family.status().message());
    auto puzzle = nlohmann::json::parse(p.puzzle_json(), nullptr, false);
    auto solution = nlohmann::json::parse(p.solution_json(), nullptr, false);
    if (puzzle.is_discarded() || solution.is_discarded()) {
      return Report(where, "puzzle or solution is not valid JSON");
    }
    auto difficulty = (*family)->Verify(puzzle, solution);
    if (!difficulty.ok()) return Report(where, difficulty.status().message());
    const std::string id = puzzles::PuzzleId(**family, (*family)->CanonicalBytes(puzzle));
    if (id != p.id()) return Report(where, fmt::format("id should be {} for this puzzle", id));
    if (!ids_.insert(id).second) return Report(where, "a second puzzle with the same canonical key");
  }
  void Report(const std::string& where, const std::string& why) {
    if (++failed_ <= kMaxReported) fmt::print(stderr, "FAIL {}: {}\n", where, why);
  }
  int Finish() const {
    fmt::print("verified {} puzzles: {} ok, {} failed\n", Grouped(checked_),
               Grouped(checked_ - failed_), Grouped(failed_));
    return failed_ == 0 ? 0 : 1;
  }

 private:
  uint64_t checked_ = 0;
  uint64_t failed_ = 0;
  std::unordered_set<std::string> ids_;
};

int VerifyStore(const std::string& dir) {
  storage::StoreOptions opts;
  opts.create_if_missing = false;
  auto store = storage::Store::Open(dir, opts);
  if (!store.ok()) return Fail(store.status().ToString());
  Verifier v;
  auto done = (*store)->Scan({}, "", 0, [&](const foundry::v1::Puzzle& p) {
    v.Check(p, p.id());
    return true;
  });
  if (!done.ok()) return Fail(done.status().ToString());
  return v.Finish();
}

int VerifyFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Fail(fmt::format("cannot open '{}'", path));
  Verifier v;
  std::string line;
  for (uint64_t n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    const std::string where = fmt::format("{}:{}", path, n);
    auto p = PuzzleFromJsonLine(line);
    if (!p.ok()) {
      v.Report(where, p.status().message());
      continue;
    }
    v.Check(*p, where + " " + p->id());
  }
  return v.Finish();
}

}  // namespace

void AddVerifyCommand(CLI::App& app, int& exit_code) {
  auto db = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("verify", "Re-verify every puzzle of a store or a .jsonl file");
  auto* db_opt = cmd->add_option("--db", *db, "Store directory");
  auto* file_opt = cmd->add_option("file", *file, "JSON Lines file (from foundry export)");
  db_opt->excludes(file_opt);
  cmd->callback([db, file, &exit_code] {
    if (db->empty() == file->empty()) {
      exit_code = Fail("verify needs exactly one of --db DIR or FILE.jsonl");
    } else {
      exit_code = db->empty() ? VerifyFile(*file) : VerifyStore(*db);
    }
  });
}

}  // namespace foundry::cli
