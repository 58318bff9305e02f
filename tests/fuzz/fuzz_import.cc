// libFuzzer target: `foundry import --db`, end to end. The input is an
// export file (JSON Lines); its lines are read as the import command reads
// them and handed to the store source the command opens, which runs the
// coordinator's importer (verify, dedup, commit) over a real RocksDB store in
// a temporary directory. Lines "answer: TEXT" are not imported: after the
// import each TEXT is played (RecordPlay with an answer, judged by the
// family) against the puzzles the file named by id, and those puzzles are
// read back and encoded as JSON, CSV and text, as `foundry get` does.
// Nothing may crash; a puzzle the import did not reject must be readable.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "cli/puzzle_json.h"
#include "cli/puzzle_source.h"
#include "storage/store.h"

namespace {

// Inputs between two fresh stores: imports add campaigns and puzzles, and a
// store that only grows would slow the run down and fill the disk.
constexpr uint64_t kInputsPerStore = 20000;
// Bounds per input, so that one input cannot take seconds.
constexpr size_t kMaxAnswers = 4;
constexpr size_t kMaxPlayedIds = 8;

class World {
 public:
  World()
      : dir_((std::filesystem::temp_directory_path() /
              ("foundry-fuzz-import-" + std::to_string(getpid())))
                 .string()) {
    Reset();
  }
  ~World() {
    source_.reset();
    std::filesystem::remove_all(dir_);
  }

  foundry::cli::PuzzleSource& source() {
    if (++inputs_ % kInputsPerStore == 0) Reset();
    return *source_;
  }

 private:
  void Reset() {
    source_.reset();
    std::filesystem::remove_all(dir_);
    // The command opens an existing store only (create_if_missing=false).
    (void)foundry::storage::Store::Open(dir_, {}).value();
    foundry::cli::SourceFlags flags;
    flags.db = dir_;
    source_ = foundry::cli::PuzzleSource::Open(flags).value();
  }

  std::string dir_;
  std::unique_ptr<foundry::cli::PuzzleSource> source_;
  uint64_t inputs_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  foundry::cli::PuzzleSource& source = world.source();
  const std::string file(reinterpret_cast<const char*>(data), size);

  // The reading loop of `foundry import` (cli/cmd_store.cc).
  std::vector<foundry::v1::ImportRequest> items;
  std::vector<std::string> answers;
  uint64_t number = 0;
  for (size_t start = 0; start < file.size();) {
    size_t end = file.find('\n', start);
    if (end == std::string::npos) end = file.size();
    const std::string line = file.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.rfind("answer:", 0) == 0) {
      if (answers.size() < kMaxAnswers) answers.push_back(line.substr(7));
      continue;
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto p = foundry::cli::PuzzleFromJsonLine(line);
    if (!p.ok()) continue;
    auto& item = items.emplace_back();
    *item.mutable_puzzle() = std::move(*p);
    item.set_line(number);
  }
  auto report = source.Import(items);
  if (!report.ok()) return 0;

  std::unordered_set<uint64_t> rejected;
  for (const auto& r : report->rejected()) rejected.insert(r.line());
  size_t played = 0;
  for (const auto& item : items) {
    if (played == kMaxPlayedIds) break;
    if (rejected.count(item.line()) || item.puzzle().id().empty()) continue;
    ++played;
    // Not rejected and named by id: the importer checked the id, so the
    // store holds this puzzle now.
    auto stored = source.Get(item.puzzle().id(), /*include_solution=*/true);
    if (!stored.ok()) __builtin_trap();
    (void)foundry::cli::PuzzleToJson(*stored).dump();
    (void)foundry::cli::PuzzleToCsvRow(*stored);
    (void)foundry::cli::PuzzleToText(*stored);
    for (const std::string& answer : answers) {
      foundry::v1::RecordPlayRequest play;
      play.set_id(item.puzzle().id());
      play.set_player_id("fuzz");
      play.set_seconds(30);
      play.set_answer(answer);
      (void)source.Play(play);
    }
  }
  return 0;
}
