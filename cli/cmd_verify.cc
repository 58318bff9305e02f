// foundry verify: re-verify every puzzle of a store or a JSON Lines file with
// the family's independent checker, recompute every id and difficulty, and
// look for two puzzles with one canonical key, on every core. Non-zero exit
// on any failure.
#include <fstream>
#include <optional>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "checks/candidate_checks.h"
#include "cli/commands.h"
#include "cli/input_file.h"
#include "cli/progress.h"
#include "cli/puzzle_json.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"
#include "storage/store.h"

namespace foundry::cli {
namespace {

constexpr int kMaxReported = 10;
// Puzzles checked per parallel round; reading and reporting stay serial, so
// failures are reported in input order.
constexpr size_t kBatch = 4096;

// One puzzle to check: from a file (the raw line, parsed in parallel) or a
// store (already decoded).
struct Pending {
  std::string where;
  std::string line;
  std::optional<foundry::v1::Puzzle> puzzle;
};

// What checking one puzzle found: a failure, or the id it should have.
struct Outcome {
  std::string error;
  std::string id;
};

// "" when the recorded difficulty is the one the family's Verify computes
// again, compared as the fleet compares a generator's grade with its
// verifier's (checks::SameDifficulty): a puzzle's grade is part of what the
// store promises. Else what differs.
std::string DifficultyMismatch(const foundry::v1::Difficulty& recorded,
                               const puzzles::Difficulty& regraded) {
  foundry::v1::Difficulty again;
  checks::SetDifficulty(regraded, &again);
  if (checks::SameDifficulty(recorded, again)) return "";
  if (recorded.level() == again.level() && recorded.score() == again.score()) {
    return fmt::format("difficulty details recorded as {}, graded again {}",
                       recorded.details_json(), again.details_json());
  }
  return fmt::format("difficulty recorded as {:?} {}, graded again {:?} {}", recorded.level(),
                     recorded.score(), again.level(), again.score());
}

Outcome CheckOne(Pending& item) {
  if (!item.puzzle) {
    auto p = PuzzleFromJsonLine(item.line);
    if (!p.ok()) return {p.status().message(), ""};
    item.puzzle = std::move(*p);
    item.where += " " + item.puzzle->id();
  }
  const foundry::v1::Puzzle& p = *item.puzzle;
  auto family = puzzles::FindFamily(p.family());
  if (!family.ok()) return {family.status().message(), ""};
  auto puzzle = nlohmann::json::parse(p.puzzle_json(), nullptr, false);
  auto solution = nlohmann::json::parse(p.solution_json(), nullptr, false);
  if (puzzle.is_discarded() || solution.is_discarded())
    return {"puzzle or solution is not valid JSON", ""};
  auto difficulty = (*family)->Verify(puzzle, solution);
  if (!difficulty.ok()) return {difficulty.status().message(), ""};
  std::string id = puzzles::PuzzleId(**family, (*family)->CanonicalBytes(puzzle));
  if (id != p.id()) return {fmt::format("id should be {} for this puzzle", id), ""};
  if (p.has_difficulty()) {
    std::string wrong = DifficultyMismatch(p.difficulty(), *difficulty);
    if (!wrong.empty()) return {std::move(wrong), ""};
  }
  return {"", std::move(id)};
}

// Checks batches on every core (the family's Verify dominates), then counts
// and reports them in order, with the duplicate check across all of them.
class Verifier {
 public:
  void Add(Pending item) {
    batch_.push_back(std::move(item));
    if (batch_.size() >= kBatch) Flush();
  }
  int Finish() {
    Flush();
    fmt::print("verified {} puzzles: {} ok, {} failed\n", Grouped(checked_),
               Grouped(checked_ - failed_), Grouped(failed_));
    return failed_ == 0 ? 0 : 1;
  }

 private:
  void Flush() {
    std::vector<Outcome> outcomes(batch_.size());
    tbb::parallel_for(size_t{0}, batch_.size(),
                      [&](size_t i) { outcomes[i] = CheckOne(batch_[i]); });
    for (size_t i = 0; i < batch_.size(); ++i) {
      ++checked_;
      if (!outcomes[i].error.empty()) {
        Report(batch_[i].where, outcomes[i].error);
      } else if (!ids_.insert(std::move(outcomes[i].id)).second) {
        Report(batch_[i].where, "a second puzzle with the same canonical key");
      }
    }
    batch_.clear();
  }
  void Report(const std::string& where, const std::string& why) {
    if (++failed_ <= kMaxReported) fmt::print(stderr, "FAIL {}: {}\n", where, why);
  }

  std::vector<Pending> batch_;
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
    v.Add({p.id(), "", p});
    return true;
  });
  if (!done.ok()) return Fail(done.status().ToString());
  return v.Finish();
}

int VerifyFile(const std::string& path) {
  auto opened = OpenInputFile(path);
  if (!opened.ok()) return Fail(opened.status().message());
  std::ifstream& in = *opened;
  Verifier v;
  std::string line;
  for (uint64_t n = 1; std::getline(in, line); ++n) {
    if (IsBlankLine(line)) continue;
    v.Add({fmt::format("{}:{}", path, n), std::move(line), std::nullopt});
  }
  return v.Finish();
}

}  // namespace

void AddVerifyCommand(CLI::App& app, int& exit_code) {
  auto db = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  CLI::App* cmd =
      app.add_subcommand("verify", "Re-verify every puzzle of a store or a .jsonl file");
  auto* db_opt = cmd->add_option("--db", *db, "Store directory");
  auto* file_opt = cmd->add_option("file", *file, "JSON Lines file (from foundry export)");
  db_opt->excludes(file_opt);
  cmd->callback([db, file, &exit_code] {
    *db = DbOrDefault(*db, *file);
    if (db->empty() == file->empty()) {
      exit_code = Fail("verify needs " + NoStoreGiven("FILE.jsonl"));
    } else {
      exit_code = db->empty() ? VerifyFile(*file) : VerifyStore(*db);
    }
  });
}

}  // namespace foundry::cli
