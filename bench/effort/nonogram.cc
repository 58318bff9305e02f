// NonogramEffort: nodes of a plain backtracking solver that proves the
// solution unique (counts solutions to two, so it walks the whole pruned
// tree). Cells are set one at a time in reading order, filled first; after
// each, the row and the column it ends are checked against their clues as
// prefixes (runs closed so far equal the clue's, an open run not longer
// than its clue run, the rest of the clue still fits). A node is one cell
// value tried. No line solving, no probing, no ordering heuristic: written
// here, independent of the family's line solver, grade and verifier; only
// the JSON reader (codec.h) is shared.
#include <cstdint>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/nonogram/codec.h"

namespace foundry::bench {
namespace {

using puzzles::nonogram::Clue;

// Far above what default-size puzzles need; larger ones may reach it.
constexpr int64_t kMaxNodes = 200'000'000;

// Whether the first `k` of `n` cells (`cells`) can start a line of `clue`.
bool PrefixFits(const std::vector<char>& cells, int k, int n, const Clue& clue) {
  size_t idx = 0;
  int run = 0;
  for (int i = 0; i < k; ++i) {
    if (cells[i]) {
      ++run;
    } else if (run > 0) {
      if (idx >= clue.size() || clue[idx] != run) return false;
      ++idx;
      run = 0;
    }
  }
  int needed = 0;  // cells the rest of the clue needs after the prefix
  if (run > 0) {
    if (idx >= clue.size() || run > clue[idx]) return false;
    needed = clue[idx] - run;
    ++idx;
    for (size_t j = idx; j < clue.size(); ++j) needed += clue[j] + 1;
  } else if (idx < clue.size()) {
    for (size_t j = idx; j < clue.size(); ++j) needed += clue[j] + 1;
    needed -= 1;
  }
  return needed <= n - k;
}

struct Backtracker {
  const puzzles::nonogram::Clues* clues = nullptr;
  int w = 0, h = 0;
  std::vector<std::vector<char>> rows, columns;  // rows[r][c], columns[c][r]
  int64_t nodes = 0;
  int solutions = 0;

  void Place(int cell) {
    if (solutions >= 2 || nodes >= kMaxNodes) return;
    if (cell == w * h) {
      ++solutions;
      return;
    }
    const int r = cell / w, c = cell % w;
    for (char v : {char{1}, char{0}}) {
      ++nodes;
      rows[r][c] = v;
      columns[c][r] = v;
      if (PrefixFits(rows[r], c + 1, w, clues->rows[r]) &&
          PrefixFits(columns[c], r + 1, h, clues->columns[c])) {
        Place(cell + 1);
      }
    }
  }
};

Result<double> NonogramEffort(const nlohmann::json& puzzle, const nlohmann::json& /*solution*/) {
  auto p = puzzles::nonogram::ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  Backtracker b;
  b.clues = &*p;
  b.w = p->width;
  b.h = p->height;
  b.rows.assign(b.h, std::vector<char>(b.w, 0));
  b.columns.assign(b.w, std::vector<char>(b.h, 0));
  b.Place(0);
  return static_cast<double>(b.nodes);
}

const bool kRegistered =
    RegisterEffort({"nonogram", "backtracking nodes (prove unique)", &NonogramEffort});

}  // namespace
}  // namespace foundry::bench
