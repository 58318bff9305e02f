// Nonogram lines: a clue (the run lengths of one row or column), a line of
// cells as bit masks, and the runs a finished line shows.
//
// A line has at most kMaxSide cells, so one uint64_t holds it: bit c is
// cell c (column c of a row, row c of a column). A partly known line is two
// masks, `fill` (known filled) and `empty` (known empty), never overlapping.
//
// Thread safety: pure functions and value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace foundry::puzzles::nonogram {

inline constexpr int kMinSide = 5;
inline constexpr int kMaxSide = 40;

// The run lengths of a line in order; empty for a line with no filled cell
// (the "0" clue, written []).
using Clue = std::vector<int>;

// The grid as H row masks of W bits (bit c of row r: cell (r, c) filled).
using Rows = std::vector<uint64_t>;

// The `n` low bits set.
constexpr uint64_t LowBits(int n) { return n >= 64 ? ~0ULL : (1ULL << n) - 1; }

// The runs of filled cells in the `n` low bits of `line`.
Clue RunsOf(uint64_t line, int n);

// True when `clue` can be laid in `n` cells: every run at least 1, runs
// plus the single gaps between them at most n.
bool ClueFits(const Clue& clue, int n);

// Column c of `rows` (H rows) as a mask of H bits.
uint64_t Column(const Rows& rows, int c);

// The clues of a grid: rows top to bottom, columns left to right.
struct Clues {
  int width = 0, height = 0;
  std::vector<Clue> rows, columns;
};
Clues CluesOf(const Rows& rows, int width, int height);

// True when the grid shows exactly `clues`.
bool Satisfies(const Clues& clues, const Rows& rows);

}  // namespace foundry::puzzles::nonogram
