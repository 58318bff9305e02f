// The generator's uniqueness solver for 9x9 grids: per-digit bitboards.
//
// Each digit keeps one 27-bit word per band (three rows) of the cells where
// it may still go. A word is reduced as a whole by one table lookup: in a
// band a digit takes one cell in each row and each box, so its "mini-rows"
// (row x box) must form one of the six row-to-box permutations, which
// finds hidden singles in rows and boxes and locked candidates (pointing
// and claiming) inside the band at once. Hidden singles in columns and
// naked singles are found word-parallel across digits; then depth-first
// search on a two-candidate cell. This is the JCZSolve/tdoku idea in its
// plainest form. For 9x9 grids, RandomSolution and RemoveClues (solver.h)
// run on it: about twice as fast as the cell-mask solver there.
//
// Verify() does not use this file for 9x9 grids: it re-checks with the
// grader's logic or the cell-mask solver of solver.h (see sudoku.cc).
//
// Thread safety: pure functions; the tables are constant.
#pragma once

#include <cstdint>

#include "puzzles/rng.h"

namespace foundry::puzzles::sudoku::band {

// Solutions of the 81 cells `givens` (row-major, 0 empty, 1..9), counted up
// to `limit` (>= 1). When `first` is not null and a solution exists, the
// first one found is written to first[0..80].
int CountSolutions(const uint8_t* givens, int limit, uint8_t* first = nullptr);

// Whether `givens` with `cell` emptied has a solution in which `cell` is not
// `value` (1..9): that is, whether removing that clue from a puzzle whose
// only solution has `value` there would admit a second solution.
bool HasOther(const uint8_t* givens, int cell, int value);

// The clues of a 9x9 grid in the form the solver starts from, kept by the
// caller one cell at a time: the removal loop changes one clue a step, so
// its checks start from this instead of reading the 81 cells each time.
class Givens {
 public:
  // Puts digit v (1..9) at `cell` when it is not there, takes it away when
  // it is (the caller keeps the clues a subset of one solution).
  void Flip(int cell, int v);

  // Whether digit v (1..9) is given nowhere in the row, column or box of
  // `cell`.
  bool Allows(int cell, int v) const;

 private:
  friend bool HasOther(const Givens& givens, int cell, int value);
  friend bool HiddenSingle(const Givens& givens, int cell, int value);
  uint16_t rows_[9] = {}, cols_[9] = {}, boxes_[9] = {};  // per digit, where it is given
  uint32_t given_[3] = {};                                // per band, the cells given
  uint32_t given_d_[27] = {};                             // per digit and band, its cell
};

// HasOther for the clues `givens`, whose `cell` is empty.
bool HasOther(const Givens& givens, int cell, int value);

// Whether the clues `givens` force digit `value` (1..9) into their empty
// `cell` by a hidden single: every other cell of its row, of its column or
// of its box is given or sees `value` among the clues. REQUIRES:
// givens.Allows(cell, value).
bool HiddenSingle(const Givens& givens, int cell, int value);

// Whether propagation alone, no search, fills the 81 cells `givens`. Every
// step it takes is a naked or hidden single or a locked candidate (the band
// rule for one digit is a row-to-box matching of three rows and three boxes,
// whose forced edges are exactly pointing and claiming), so a grid it fills
// grades easy or medium (grader.h), and one it does not fill is not easy.
// The generator asks it before the grader when it aims at a level.
bool SolvesWithoutSearch(const uint8_t* givens);

// A random complete grid, drawn from `rng` alone, written to out[0..80]:
// random permutations in the three diagonal boxes, completed by a search
// that tries digits in random order.
void RandomSolution(Rng& rng, uint8_t* out);

}  // namespace foundry::puzzles::sudoku::band
