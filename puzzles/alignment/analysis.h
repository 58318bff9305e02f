// Everything the alignment family derives from a board: the greedy, the
// target score, the best score and the difficulty. Generation and Verify()
// both call Analyze(), so a stored puzzle's figures are recomputed exactly.
//
// Difficulty, from the solvers' work (one table, here):
//   steps    greedy gaps needed to reach the target score (the simple
//            strategy's length; a player needs about as many right gaps);
//   headroom best_score - greedy_score (how far the seed's strategy falls
//            short of the optimum: rewards for a player who looks further),
//            taken relative to best_score - base_score (the improvement
//            there is to find), so it lies in [0, 1] at any board size.
// score = 0.7 * min(1, (steps - 1) / 3) + 0.3 * headroom / (best - base),
// rounded to three decimals; levels: < 0.25 easy, < 0.5 medium, < 0.75 hard,
// else expert. The steps term saturates at 4 steps: at the default board the
// greedy reaches the target in 1..4 gaps for 88% of puzzles, so a span of 6
// (saturating at 7, 2% of them) left expert to 0.7% of the stream
// (docs/families/alignment.md, "Difficulty").
//
// Thread safety: pure functions.
#pragma once

#include "puzzles/alignment/best_search.h"
#include "puzzles/alignment/board.h"
#include "puzzles/alignment/greedy.h"
#include "puzzles/family.h"

namespace foundry::puzzles::alignment {

struct Analysis {
  GreedyResult greedy;
  BestResult best;
  int target = 0;  // base + ceil((greedy - base) / 2)
  int steps_to_target = 0;
  Difficulty difficulty;
};

// The target score the seed sets: halfway from base to greedy, rounded up.
int TargetScore(int base, int greedy);

// REQUIRES: `board` as for Greedy(); `greedy` = Greedy(board) when given.
Analysis Analyze(const Board& board);
Analysis Analyze(const Board& board, GreedyResult greedy);

// The difficulty from the figures above. details = {"base", "target",
// "greedy", "best", "headroom", "greedy_gaps", "steps_to_target",
// "best_method" ("exact" | "beam"), "search_nodes"}.
Difficulty RateDifficulty(const GreedyResult& greedy, const BestResult& best, int target,
                          int steps_to_target);

}  // namespace foundry::puzzles::alignment
