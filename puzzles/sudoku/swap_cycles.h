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

// A set of cells of a grid of up to kMaxCells cells.
class CellSet {
 public:
  void Add(int cell) { w_[cell >> 6] |= uint64_t{1} << (cell & 63); }
  void Remove(int cell) { w_[cell >> 6] &= ~(uint64_t{1} << (cell & 63)); }
  // Whether the sets share a cell.
  bool Meets(const CellSet& other) const {
    return ((w_[0] & other.w_[0]) | (w_[1] & other.w_[1]) | (w_[2] & other.w_[2]) |
            (w_[3] & other.w_[3])) != 0;
  }

 private:
  std::array<uint64_t, kMaxCells / 64> w_{};
};

class SwapCycles {
 public:
  // The cycles of `solution`. REQUIRES: IsCompleteSolution(shape, solution).
  SwapCycles(const Shape& shape, const Grid& solution);

  // Whether some cycle or line swap through `cell` holds none of `clues`.
  // Then a puzzle with exactly those clues has a solution in which `cell`
  // differs from the grid's. REQUIRES: `clues` does not hold `cell`.
  bool HasFreeCycle(int cell, const CellSet& clues) const;

 private:
  // Per digit (0-based), its column in each row or its row in each column.
  using DigitLines = std::array<std::array<uint8_t, kMaxN>, kMaxN>;
  // The line swaps, appended to cycles_ (see above).
  void AddLineSwaps(const Shape& shape, const DigitLines& col_of, const DigitLines& row_in_col);

  int n_;
  std::vector<uint8_t> digit_;   // the grid's digit per cell
  std::vector<CellSet> cycles_;  // every cycle of every digit pair, once
  // cycle_of_[cell * n_ + x - 1]: the index in cycles_ of the cycle through
  // `cell` of its digit and x (unused when x is its digit). The cycle holds
  // `cell` itself, which the clues asked about never do.
  std::vector<uint16_t> cycle_of_;
  // swap_of_[cell * slots_ + j]: the index in cycles_ of the line swap
  // through `cell` with its j-th partner line (the other rows of its band,
  // then the other columns of its stack).
  std::vector<uint16_t> swap_of_;
  int slots_ = 0;
};

}  // namespace foundry::puzzles::sudoku
