// SudokuEffort: Debian's qqwing (`qqwing --solve --stats`), a solver the
// family's grade was not tuned to, rates the puzzle:
//   effort = qqwing's difficulty (simple 0, easy 1, intermediate 2,
//            expert 3) + its guesses + backtracks, the mean of kSolves solves.
// qqwing's logic is singles, pointing and box/line, naked and hidden pairs;
// beyond that it guesses ("expert"), so our hard puzzles (triples, fish,
// XY-wing) are expert there too and only its trial and error tells them from
// our experts. It guesses in a random order, hence the mean of several
// solves of the same puzzle (one process; easier puzzles need no guess and
// score their difficulty alone). 9x9 only, as qqwing is. Only the JSON
// reader (codec.h) is shared with the family.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "bench/effort/effort.h"
#include "puzzles/sudoku/codec.h"

namespace foundry::bench {
namespace {

constexpr int kSolves = 8;

// Whether `qqwing` is an executable on PATH.
bool HaveQqwing() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/bin:/bin";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    if (!dir.empty() && access((dir + "/qqwing").c_str(), X_OK) == 0) return true;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return false;
}

// qqwing's "Difficulty: X" on the 0..3 scale, or -1.
int DifficultyIndex(std::string_view name) {
  constexpr std::string_view kNames[] = {"Simple", "Easy", "Intermediate", "Expert"};
  for (int i = 0; i < 4; ++i) {
    if (name == kNames[i]) return i;
  }
  return -1;
}

Result<double> SudokuEffort(const nlohmann::json& puzzle, const nlohmann::json&) {
  auto p = puzzles::sudoku::ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  if (p->shape.n() != 9) return Status::InvalidArgument("qqwing solves 9x9 grids only");
  static const bool kHave = HaveQqwing();
  if (!kHave) {
    return Status::FailedPrecondition("qqwing is missing: install it (apt-get install -y qqwing)");
  }
  // The grid (only '.' and '1'..'9', ParsePuzzle checked) kSolves times.
  char input[] = "/tmp/foundry-sudoku-effort-XXXXXX";
  const int fd = mkstemp(input);
  if (fd < 0) return Status::Internal("sudoku effort: cannot create a temporary file");
  std::string lines;
  const std::string grid = puzzles::sudoku::GridToString(p->grid);
  for (int i = 0; i < kSolves; ++i) lines += grid + "\n";
  const bool written = write(fd, lines.data(), lines.size()) == static_cast<ssize_t>(lines.size());
  close(fd);
  if (!written) {
    unlink(input);
    return Status::Internal("sudoku effort: cannot write the temporary file");
  }
  const std::string cmd = fmt::format("qqwing --solve --stats --one-line --nosolution < {}", input);
  FILE* out = popen(cmd.c_str(), "r");
  if (out == nullptr) {
    unlink(input);
    return Status::Internal("sudoku effort: cannot run qqwing");
  }
  int solves = 0, difficulty = -1;
  long trials = 0;  // guesses + backtracks over all solves
  char buf[256];
  while (std::fgets(buf, sizeof buf, out) != nullptr) {
    std::string_view line(buf);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "Number of Guesses" || key == "Number of Backtracks") {
      trials += std::strtol(std::string(value).c_str(), nullptr, 10);
    } else if (key == "Difficulty") {
      difficulty = DifficultyIndex(value);  // the same every solve: logic comes first
      ++solves;
    }
  }
  const int rc = pclose(out);
  unlink(input);
  if (rc != 0 || solves != kSolves || difficulty < 0) {
    return Status::Internal(
        fmt::format("sudoku effort: qqwing gave {} of {} ratings (exit {})", solves, kSolves, rc));
  }
  return difficulty + static_cast<double>(trials) / kSolves;
}

const bool kRegistered = RegisterEffort({"sudoku", "qqwing level+guesses", &SudokuEffort});

}  // namespace
}  // namespace foundry::bench
