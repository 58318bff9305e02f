// The generator's line solver: everything one line's clue and its known
// cells settle, with no guess (a complete line solver).
//
// The clue becomes a small automaton read cell by cell, 0*1^a0+1^b...0*
// for runs a, b, ...: one state per run cell and one per gap (the leading
// gap and the gap after each run), at most 42 states for 40 cells, so a set
// of states is one uint64_t and reading a cell is a shift and a mask. A
// forward pass gives the states reachable after each prefix, a backward
// pass the states from which the rest of the line can still be read; a cell
// may be filled (empty) when some reachable state steps on a filled (empty)
// cell into a state the rest can finish from. O(n) word operations a line.
// puzzles/nonogram/placement_solver.h solves lines the other way (run
// placements), for Verify.
//
// Thread safety: LineAutomaton is an immutable value; SolveLine is pure.
#pragma once

#include <cstdint>

#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

struct LineAutomaton {
  int length = 0;       // cells in the line
  uint64_t ones = 0;    // run-cell states (entered by reading a filled cell)
  uint64_t gaps = 0;    // gap states (loop on an empty cell)
  uint64_t lasts = 0;   // the last cell of each run (an empty cell leads on to its gap)
  uint64_t accept = 0;  // states a complete line may end in

  // REQUIRES: ClueFits(clue, length).
  static LineAutomaton Build(const Clue& clue, int length);
};

// What can be read of a line: forward[c], the states reachable after its
// first c cells; backward[c], the states from which cells c..n-1 can be read
// to an accepting end. A state in both at c lies on some whole line that
// agrees with the known cells.
struct LineReach {
  uint64_t forward[kMaxSide + 1];
  uint64_t backward[kMaxSide + 1];
};

// Fills `out` for the known cells `fill` and `empty`. Returns false when no
// line agrees with them (`out` is then unspecified).
bool Reach(const LineAutomaton& a, uint64_t fill, uint64_t empty, LineReach& out);

// Settles what `a`'s clue and the known cells force: adds the forced cells
// to `fill` and `empty` (bits below a.length). Returns false when no line
// agrees with the known cells (the masks are then unspecified).
bool SolveLine(const LineAutomaton& a, uint64_t& fill, uint64_t& empty);

}  // namespace foundry::puzzles::nonogram
