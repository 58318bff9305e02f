// The verifier's sudoku solver: Knuth's Algorithm X with dancing links over
// the exact-cover form of sudoku (one column per cell, row-digit,
// column-digit and box-digit; one row per cell-digit choice the givens allow).
// It shares no code with solver.h, so for the shapes whose generator runs on
// solver.h (all but 9x9), Verify() does not trust the generator's solver to
// re-check what the generator produced. Tests use it as a third opinion.
//
// Thread safety: a pure function; all state is local to the call.
#pragma once

#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

// Solutions of `givens`, counted up to `limit` (>= 1); the first one found
// goes to *first when it is not null.
// REQUIRES: givens.size() == shape.cells(), values 0..N.
int DlxCountSolutions(const Shape& shape, const Grid& givens, int limit, Grid* first = nullptr);

}  // namespace foundry::puzzles::sudoku
