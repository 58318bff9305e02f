#include "puzzles/nonogram/simple_rules.h"

#include "puzzles/nonogram/line_solver.h"

namespace foundry::puzzles::nonogram {
namespace {

// Cells [a, b) as a mask.
uint64_t Span(int a, int b) { return b <= a ? 0 : LowBits(b) & ~LowBits(a); }

}  // namespace

bool SimpleLine(const LineAutomaton& a, uint64_t& fill, uint64_t& empty) {
  const int n = a.length;
  LineReach reach;
  if (!Reach(a, fill, empty, reach)) return false;
  // The first state of each run. Run j can start at cell c in some line that
  // agrees with the known cells exactly when reading c as filled enters its
  // first state from a reachable state (c not known empty) and the rest can still be read; its
  // first and last such cells are its starts in the leftmost and the
  // rightmost placement.
  const uint64_t firsts = a.ones & (a.gaps << 1);
  int left[64], right[64];
  uint64_t seen = 0;
  for (int c = 0; c < n; ++c) {
    if ((empty >> c) & 1ULL) continue;
    for (uint64_t m = (reach.forward[c] << 1) & firsts & reach.backward[c + 1]; m != 0;
         m &= m - 1) {
      const int s = __builtin_ctzll(m);
      if (((seen >> s) & 1ULL) == 0) left[s] = c;
      seen |= 1ULL << s;
      right[s] = c;
    }
  }
  // Some whole line agrees (Reach), so every run has a start.
  uint64_t boxes = 0, spaces = 0;
  int gap_from = 0;  // where the gap before the next run begins, rightmost placement
  for (uint64_t m = firsts; m != 0; m &= m - 1) {
    const int s = __builtin_ctzll(m);
    const int len = __builtin_ctzll(a.lasts >> s) + 1;
    boxes |= Span(right[s], left[s] + len);
    spaces |= Span(gap_from, left[s]);
    gap_from = right[s] + len;
  }
  spaces |= Span(gap_from, n);
  if ((boxes & empty) != 0 || (spaces & fill) != 0) return false;
  fill |= boxes;
  empty |= spaces;
  return true;
}

}  // namespace foundry::puzzles::nonogram
