// Probing: the contradiction step of hard nonograms. Suppose a cell is
// filled (or empty) and solve lines until nothing changes; if that
// contradicts the clues, the cell is the other way. A probe uses only line
// solving, never another probe (no nested suppositions).
//
// Probing runs in layers: layer 1 probes every open cell of the
// line-solved grid, applies every contradiction found at once and line
// solves again; layer 2 probes what is then still open, and so on. A
// puzzle that one layer finishes needs only contradictions visible from
// the start; one that needs a second layer needs a contradiction that
// exists only once an earlier one is known (a chain of suppositions).
// Layers are order-independent: each layer probes one fixed grid.
//
// Thread safety: pure function over the caller's board.
#pragma once

#include "puzzles/nonogram/board.h"
#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

struct ProbeOutcome {
  bool consistent = true;  // false: the clues contradict themselves
  int layers = 0;          // layers that settled a cell
  int forced = 0;          // cells settled by a contradiction, over all layers
};

// Probes `board` (at the fixed point of the complete line solver) layer by
// layer until it is solved or a layer settles nothing.
//
// `hint`, when given, is a grid that shows the clues (a solution): a probe
// that agrees with a solution cannot contradict, so only the other value is
// tried. The outcome is the same as without the hint, in half the probes.
ProbeOutcome ProbeInLayers(Board& board, const Rows* hint);

}  // namespace foundry::puzzles::nonogram
