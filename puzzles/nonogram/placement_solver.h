// Verify's own nonogram solver, independent of the generator's: lines are
// solved by run placements (a table of which runs fit before and after each
// cell), on a grid of cell values, and a depth-first search with that line
// propagation and failed-cell detection (a cell whose value contradicts
// takes the other) counts the solutions up to a limit. The generator uses the
// automaton of line_solver.h and the probing of probing.h instead.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

enum Cell : int8_t { kUnknown = 0, kFilled = 1, kEmpty = 2 };

// Settles what `clue` forces in `cells` (a line, changed in place). Returns
// false when no placement of the runs agrees with the known cells.
bool PlaceLine(const Clue& clue, std::vector<int8_t>& cells);

struct SearchCount {
  int solutions = 0;       // 0, 1 or `limit` (at most)
  int64_t nodes = 0;       // search nodes visited (1 when propagation alone finishes)
  bool exhausted = false;  // stopped at the node limit: `solutions` is a lower bound
};

// Counts the grids showing `clues`, stopping at `limit` solutions or
// `max_nodes` search nodes.
SearchCount CountSolutions(const Clues& clues, int limit, int64_t max_nodes);

}  // namespace foundry::puzzles::nonogram
