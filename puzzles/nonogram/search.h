// The generator's uniqueness search for puzzles that line solving plus
// probing leave open: depth-first on the open cells with the complete line
// solver between guesses, stopping at the second solution.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "puzzles/nonogram/board.h"

namespace foundry::puzzles::nonogram {

struct GuessCount {
  int solutions = 0;       // up to 2
  int64_t nodes = 0;       // boards visited
  bool exhausted = false;  // stopped at max_nodes: the count is a lower bound
};

// Counts the solutions reachable from `board` (at a line-solving fixed
// point) up to two, visiting at most `max_nodes` boards. With `known` (a
// solution) and `other`, a solution found that differs from `known` is
// written to `other` (the generator repairs its image with it).
GuessCount CountToTwo(const Board& board, int64_t max_nodes, const Rows* known = nullptr,
                      Rows* other = nullptr);

// Looks for a solution other than `image` near it, cheaply: for each open
// cell of `board` (at a line-solving fixed point) in reading order, the cell
// is set against the image and the rest completed depth-first, the image's
// value first, until a whole grid agrees with the clues. Visits at most
// `max_nodes` boards. True when one was found: the puzzle is not unique.
// False says nothing (the budget ran out, or the puzzle is unique).
bool FindOtherSolutionNear(const Board& board, const Rows& image, int64_t max_nodes);

}  // namespace foundry::puzzles::nonogram
