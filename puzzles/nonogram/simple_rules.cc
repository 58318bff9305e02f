#include "puzzles/nonogram/simple_rules.h"

#include <algorithm>

namespace foundry::puzzles::nonogram {
namespace {

constexpr int kMaxRuns = (kMaxSide + 1) / 2;

// Cells [a, b) as a mask.
uint64_t Span(int a, int b) { return b <= a ? 0 : LowBits(b) & ~LowBits(a); }

uint64_t Reverse(uint64_t line, int n) {
  uint64_t out = 0;
  for (int c = 0; c < n; ++c) out |= ((line >> c) & 1ULL) << (n - 1 - c);
  return out;
}

// The leftmost placement (the smallest start of each run, in order) that
// agrees with the known cells, into `start`; false when there is none.
bool Leftmost(const int* runs, int k, int n, uint64_t fill, uint64_t empty, int* start) {
  // fits[j][p]: runs j..k-1 can be placed in cells [p, n), the rest empty.
  bool fits[kMaxRuns + 1][kMaxSide + 2];
  for (int p = 0; p <= n; ++p) fits[k][p] = (fill & Span(p, n)) == 0;
  for (int j = k - 1; j >= 0; --j) {
    fits[j][n] = false;
    for (int p = n - 1; p >= 0; --p) {
      const int e = p + runs[j];
      const bool here = e <= n && (empty & Span(p, e)) == 0 &&
                        (e == n ? j == k - 1 : !((fill >> e) & 1ULL) && fits[j + 1][e + 1]);
      fits[j][p] = here || (!((fill >> p) & 1ULL) && fits[j][p + 1]);
    }
  }
  if (!fits[0][0]) return false;
  int pos = 0;
  for (int j = 0; j < k; ++j) {
    for (int s = pos;; ++s) {
      const int e = s + runs[j];
      if (e <= n && (empty & Span(s, e)) == 0 &&
          (e == n ? j == k - 1 : !((fill >> e) & 1ULL) && fits[j + 1][e + 1])) {
        start[j] = s;
        pos = e + 1;
        break;
      }
      // fits[0][0] promises a placement, so the loop stops before a known
      // filled cell would be left in a gap.
    }
  }
  return true;
}

}  // namespace

bool SimpleLine(const Clue& clue, int n, uint64_t& fill, uint64_t& empty) {
  const int k = static_cast<int>(clue.size());
  if (k == 0) {
    if (fill != 0) return false;
    empty |= LowBits(n);
    return true;
  }
  int runs[kMaxRuns], reversed[kMaxRuns], left[kMaxRuns], mirrored[kMaxRuns], right[kMaxRuns];
  for (int j = 0; j < k; ++j) {
    runs[j] = clue[static_cast<size_t>(j)];
    reversed[k - 1 - j] = runs[j];
  }
  if (!Leftmost(runs, k, n, fill, empty, left)) return false;
  if (!Leftmost(reversed, k, n, Reverse(fill, n), Reverse(empty, n), mirrored)) return false;
  for (int j = 0; j < k; ++j) right[j] = n - mirrored[k - 1 - j] - runs[j];
  uint64_t boxes = 0, spaces = 0;
  for (int j = 0; j < k; ++j) boxes |= Span(right[j], left[j] + runs[j]);
  for (int j = 0; j <= k; ++j) {
    const int gap_from = j == 0 ? 0 : right[j - 1] + runs[j - 1];
    const int gap_to = j == k ? n : left[j];
    spaces |= Span(gap_from, gap_to);
  }
  if ((boxes & empty) != 0 || (spaces & fill) != 0) return false;
  fill |= boxes;
  empty |= spaces;
  return true;
}

}  // namespace foundry::puzzles::nonogram
