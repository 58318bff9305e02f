// Generation of sudoku puzzles: a random complete grid, then clues removed in
// random order while the solution stays unique (solver.h), then graded by the
// human-style grader (grader.h) and filtered by level.
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
};

// One candidate from `rng` alone. Rejection reason: "level" (the
// puzzle graded at another level than options.level).
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::sudoku
