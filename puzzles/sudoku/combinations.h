// The k-combinations the grader's subset and fish techniques try
// (grading_logic.h), walked so that hopeless ones are never visited.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>

#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku::grading {

// Calls f(idx) for the increasing k-combinations idx of 0..m-1, in
// lexicographic order, until f returns true; returns whether one did.
// Skips every combination whose masks[] together have more than k bits
// (count(x) counts x's bits): a subset or a fish needs exactly k, and a
// combination whose first items already have more is cut with all that
// extend it. REQUIRES: m <= kMaxN.
template <typename CountBits, typename F>
bool ForCombosWithin(int m, int k, const uint32_t* masks, CountBits count, F&& f) {
  if (k > m) return false;
  int idx[kMaxN];
  uint32_t acc[kMaxN + 1];  // acc[i]: the union of the masks of idx[0..i-1]
  acc[0] = 0;
  int depth = 0;
  idx[0] = 0;
  for (;;) {
    if (idx[depth] > m - (k - depth)) {  // no room left for the items after it
      if (depth == 0) return false;
      ++idx[--depth];
      continue;
    }
    const uint32_t u = acc[depth] | masks[idx[depth]];
    if (count(u) > k) {
      ++idx[depth];
    } else if (depth + 1 < k) {
      acc[depth + 1] = u;
      idx[depth + 1] = idx[depth] + 1;
      ++depth;
    } else {
      if (f(static_cast<const int*>(idx))) return true;
      ++idx[depth];
    }
  }
}

}  // namespace foundry::puzzles::sudoku::grading
