// Generation of sudoku puzzles: a random complete grid, then clues removed in
// random order while the solution stays unique (solver.h), then graded by the
// human-style grader (grader.h).
//
// Asked for easy, medium or hard, the removal aims at that level the way
// Simon Tatham's generators do: a removal stands only when the grader, never
// trying a technique above the level, still solves the puzzle, so the grade
// never passes the level and each candidate ends at the hardest grade the
// level allows that its removal order reached ("minimal" then means: no clue
// can go without a second solution or a technique above the level). The
// candidate is still rejected when it ends below the level. Asked for any
// level or for expert, the removal is the plain one (every unique removal
// stands), so those candidates are the same as without a level.
//
// Thread safety: reentrant.
#pragma once

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

struct GenerateOptions {
  Shape shape;             // one of SupportedShapes()
  bool symmetric = false;  // remove in 180-degree pairs
  bool minimal = true;     // see RemovalOptions::minimal
  int level = -1;          // -1 any, else the kLevels index a puzzle must grade at
  // RemovalOptions::max_check_nodes: a 16x16 draft whose uniqueness search
  // runs past it is given up (a fresh one is cheaper than the tail).
  int64_t max_check_nodes = 20000;
};

// One candidate from `rng` and `options` alone. Rejection reasons: "level"
// (the puzzle graded at another level than options.level), "search_limit"
// (a uniqueness search ran past max_check_nodes).
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::sudoku
