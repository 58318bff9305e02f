// Digit-swap cycles of a complete grid: a removal check that needs no search.
//
// Take two digits x and y of a solution and link each cell holding one of
// them to the cell holding the other in its row, its column and its box.
// Swapping x and y on a connected part of those cells (a cycle) gives
// another valid grid: every row, column and box either has both its x and
// its y swapped or neither. So a puzzle whose clues miss one such cycle
// entirely has a second solution. The removal loop (solver.h) asks this
// before it searches: a clue whose removal would leave a cycle through it
// clue-free must stay, and the search would only have said the same.
// Cycles of two digits are the common small "unavoidable sets". So are line
// swaps: where two rows of one band hold the same digits in some columns,
// exchanging the two rows' digits there gives another valid grid (each
// column, and each box, since both cells of a column lie in one box, keeps
// its digits); two columns of one stack likewise. The search still decides
// every other case, so the puzzles made are exactly those of the search
// alone.
//
// Thread safety: a value; const methods may be called concurrently.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

class SwapCycles;

// The clues of puzzles made from one SwapCycles' grid, one cell at a time,
// kept as the masks a cycle test reads: per row the columns given, per
// column the rows, per digit the rows where the grid's cell of it is given.
class ClueSet {
 public:
  // No clue. REQUIRES: `grid` outlives this set.
  explicit ClueSet(const SwapCycles& grid) : grid_(&grid) {}

  // Makes `cell` a clue (it is not one).
  void Add(int cell) { Flip(cell); }
  // Takes `cell`'s clue away (it is one).
  void Remove(int cell) { Flip(cell); }

 private:
  friend class SwapCycles;
  inline void Flip(int cell);

  const SwapCycles* grid_;
  std::array<uint16_t, kMaxN> row_cols_{};    // per row, the columns given
  std::array<uint16_t, kMaxN> col_rows_{};    // per column, the rows given
  std::array<uint16_t, kMaxN> digit_rows_{};  // per digit (0-based), the rows given
};

class SwapCycles {
 public:
  // The cycles of `solution`. REQUIRES: IsCompleteSolution(shape, solution).
  SwapCycles(const Shape& shape, const Grid& solution);

  // Whether some cycle or line swap through `cell` holds none of `clues`.
  // Then a puzzle with exactly those clues has a solution in which `cell`
  // differs from the grid's. REQUIRES: `clues` is of this grid and does not
  // hold `cell`.
  bool HasFreeCycle(int cell, const ClueSet& clues) const;

 private:
  friend class ClueSet;
  // Per digit (0-based), its column in each row or its row in each column.
  using DigitLines = std::array<std::array<uint8_t, kMaxN>, kMaxN>;
  // The line swaps (see above) into swap_ and partner_.
  void AddLineSwaps(const Shape& shape, const DigitLines& col_of, const DigitLines& row_in_col);

  int n_;
  std::vector<uint8_t> digit_;      // the grid's digit per cell (1-based)
  std::vector<uint8_t> row_, col_;  // per cell
  // part_[cell * n_ + x]: the rows of the cycle of `cell`'s digit and digit
  // x + 1 (0-based x) through `cell` (unused when x is its digit). A cycle
  // holds, in each of its rows, the cells of both digits.
  std::vector<uint16_t> part_;
  // swap_[cell * slots_ + j]: the positions (columns for two rows, rows for
  // two columns) of the line swap through `cell` with its j-th partner line
  // (the other rows of its band, then the other columns of its stack), and
  // partner_ that line.
  std::vector<uint16_t> swap_;
  std::vector<uint8_t> partner_;
  int slots_ = 0;
  int row_slots_ = 0;  // the first row_slots_ slots pair rows, the rest columns
};

void ClueSet::Flip(int cell) {
  const int r = grid_->row_[cell], k = grid_->col_[cell];
  row_cols_[r] = static_cast<uint16_t>(row_cols_[r] ^ 1u << k);
  col_rows_[k] = static_cast<uint16_t>(col_rows_[k] ^ 1u << r);
  const int d = grid_->digit_[cell] - 1;
  digit_rows_[d] = static_cast<uint16_t>(digit_rows_[d] ^ 1u << r);
}

}  // namespace foundry::puzzles::sudoku
