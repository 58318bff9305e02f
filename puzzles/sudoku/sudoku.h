// The sudoku family (seed 002 names it; qqwing is the peer we measure
// against): box 2x2, 2x3, 3x3 (default), 3x4 or 4x4; a random full grid with
// clues removed while the solution stays unique; minimal by default;
// optionally 180-degree symmetric; graded by a human-style solver.
// See docs/families/sudoku.md and
// family.h for the contract.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::sudoku {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::sudoku
