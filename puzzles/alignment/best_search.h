// The best score of an alignment board, beyond the seed's greedy (which, the
// seed admits, "does not guarantee the highest possible score").
//
// Both searches decide the board cell by cell, row by row and, within a row,
// column by column: either the column's next brick goes in this row, or the
// cell is empty (a gap while bricks remain, nothing after the last). The
// bound of a partial layout adds, per column, the most matches it can still
// make alone (a small per-column table) and, per remaining row where every
// column could still match, the full-row bonus. The bound never
// underestimates, so:
//   * BestScore first runs branch and bound, depth first, from the greedy's
//     score as incumbent, pruning a branch whose bound cannot beat it and a
//     row boundary state (row, bricks placed per column, gaps used) reached
//     before with at least the same score. Finishing within `node_budget`
//     proves the optimum (exact = true).
//   * Otherwise a beam search over the same decisions (width `beam_width`,
//     ranked by the bound) gives a good layout, never worse than the greedy's
//     (exact = false).
// Deterministic: the same board and budgets give the same result.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>

#include "puzzles/alignment/board.h"
#include "puzzles/alignment/greedy.h"

namespace foundry::puzzles::alignment {

// Defaults used by generation and by Verify (both must agree: best_score is
// recomputed). Never change them without accepting that stored puzzles'
// best_score may stop verifying.
inline constexpr int64_t kExactNodeBudget = 200000;
inline constexpr int kBeamWidth = 128;

struct BestResult {
  Layout layout;       // a layout with `score`
  int score = 0;       // >= the greedy's score
  bool exact = false;  // true: branch and bound finished, `score` is optimal
  int64_t nodes = 0;   // branch-and-bound nodes visited (up to the budget)
};

// REQUIRES: `board` as for Greedy(); `greedy` = Greedy(board).
BestResult BestScore(const Board& board, const GreedyResult& greedy,
                     int64_t node_budget = kExactNodeBudget, int beam_width = kBeamWidth);

}  // namespace foundry::puzzles::alignment
