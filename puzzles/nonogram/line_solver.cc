#include "puzzles/nonogram/line_solver.h"

namespace foundry::puzzles::nonogram {

LineAutomaton LineAutomaton::Build(const Clue& clue, int length) {
  LineAutomaton a;
  a.length = length;
  a.gaps = 1;  // state 0: the leading gap
  int state = 1;
  for (int run : clue) {
    for (int t = 0; t < run; ++t) a.ones |= 1ULL << state++;
    a.lasts |= 1ULL << (state - 1);
    a.gaps |= 1ULL << state++;  // the gap after this run
  }
  // A line ends in the trailing gap or right after the last run's last cell.
  a.accept = clue.empty() ? 1ULL : (3ULL << (state - 2));
  return a;
}

bool Reach(const LineAutomaton& a, uint64_t fill, uint64_t empty, LineReach& out) {
  const int n = a.length;
  uint64_t* forward = out.forward;
  uint64_t* backward = out.backward;
  forward[0] = 1;
  // Masks instead of branches: whether a cell may be read filled (empty) is
  // as good as random, and mispredictions cost more than the masking.
  for (int c = 0; c < n; ++c) {
    const uint64_t s = forward[c];
    const uint64_t may_fill = ((empty >> c) & 1ULL) - 1;  // all ones unless known empty
    const uint64_t may_empty = ((fill >> c) & 1ULL) - 1;
    forward[c + 1] =
        ((s << 1) & a.ones & may_fill) | (((s & a.gaps) | ((s & a.lasts) << 1)) & may_empty);
  }
  if ((forward[n] & a.accept) == 0) return false;
  backward[n] = a.accept;
  for (int c = n - 1; c >= 0; --c) {
    const uint64_t s = backward[c + 1];
    const uint64_t may_fill = ((empty >> c) & 1ULL) - 1;
    const uint64_t may_empty = ((fill >> c) & 1ULL) - 1;
    backward[c] =
        (((s & a.ones) >> 1) & may_fill) | (((s & a.gaps) | ((s >> 1) & a.lasts)) & may_empty);
  }
  return true;
}

bool SolveLine(const LineAutomaton& a, uint64_t& fill, uint64_t& empty) {
  const int n = a.length;
  LineReach reach;
  if (!Reach(a, fill, empty, reach)) return false;
  const uint64_t* forward = reach.forward;
  const uint64_t* backward = reach.backward;
  uint64_t may_fill = 0, may_empty = 0;
  for (int c = 0; c < n; ++c) {
    const uint64_t s = forward[c];
    const uint64_t after = backward[c + 1];
    if (((s << 1) & a.ones & after) != 0) may_fill |= 1ULL << c;
    if ((((s & a.gaps) | ((s & a.lasts) << 1)) & after) != 0) may_empty |= 1ULL << c;
  }
  // A known cell is possible only its own way; a cell possible neither way
  // cannot occur, since some whole line was accepted.
  may_fill &= ~empty;
  may_empty &= ~fill;
  const uint64_t all = LowBits(n);
  fill |= all & ~may_empty;
  empty |= all & ~may_fill;
  return true;
}

}  // namespace foundry::puzzles::nonogram
