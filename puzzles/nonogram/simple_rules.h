// The two rules of an easy nonogram, applied to one line: "simple boxes"
// and "simple spaces", from the leftmost and the rightmost placement of the
// runs that agree with the known cells.
//
// Every run lies, in any solution of the line, between its place in the
// leftmost placement and its place in the rightmost one. So
//   - simple boxes: a cell that run j covers in both is filled;
//   - simple spaces: a cell in the gap before run j in both (after run j-1
//     ends in the rightmost placement, before run j starts in the leftmost;
//     the ends of the line count as gaps) is empty.
// This is what a person does by sliding each run to the left and to the
// right; it misses what only the complete line solver (line_solver.h) sees,
// e.g. which run a known cell belongs to when several could reach it.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "puzzles/nonogram/line_solver.h"

namespace foundry::puzzles::nonogram {

// Adds to `fill` and `empty` the cells the two rules settle in a line read
// by `a` (line_solver.h). Returns false when no placement agrees with the
// known cells.
bool SimpleLine(const LineAutomaton& a, uint64_t& fill, uint64_t& empty);

}  // namespace foundry::puzzles::nonogram
