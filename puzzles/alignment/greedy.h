// The seed's greedy for alignment boards, with its three optimisations.
//
// Each step tries every legal single gap and keeps the best; steps repeat
// while the score strictly improves (and, when max_gaps > 0, while gaps are
// left). Ties: lowest column, then lowest position. The optimisations, as in
// the seed's blog post:
//   1. full columns are skipped, and a gap is only tried immediately before a
//      brick (a gap beside an existing gap gives the same layout);
//   2. a row's score is its matching count m_r, times row_bonus when m_r = W;
//   3. per column, ONE score computation: with the current row counts
//      (prefix sums) and the row counts of the column shifted down by one
//      (suffix sums, the seed's future_score), a gap before the brick in row
//      q scores prefix[q] + row q without the brick + suffix[q], O(1) each.
// So a step costs O(W * H) instead of O(W * H) trials of O(W * H) each.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <vector>

#include "puzzles/alignment/board.h"

namespace foundry::puzzles::alignment {

struct GreedyResult {
  Layout layout;            // the final layout
  std::vector<int> scores;  // scores[0] = base score, scores[k] after k gaps
  int64_t evaluations = 0;  // full score computations, the seed's measure
  // (one for the current score per step plus one per non-full column).

  int base() const { return scores.front(); }
  int score() const { return scores.back(); }
  int gaps() const { return static_cast<int>(scores.size()) - 1; }
};

// REQUIRES: `board` well formed (guides.size() == height, every column at
// most `height` bricks, at most kMaxColumns columns and kMaxHeight rows).
GreedyResult Greedy(const Board& board);

}  // namespace foundry::puzzles::alignment
