// Tests of the alignment grade (analysis.h): the score of each level's
// figures, and every level reached at default parameters, with Verify()
// recomputing the generator's grade.
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/alignment/alignment.h"
#include "puzzles/alignment/analysis.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::alignment {
namespace {

// The grade of a greedy that climbs through `scores`, a best of `best`, and
// `steps` gaps to the target.
Difficulty Grade(std::vector<int> scores, int best, int steps) {
  GreedyResult g;
  g.scores = std::move(scores);
  BestResult b;
  b.score = best;
  b.exact = true;
  return RateDifficulty(g, b, TargetScore(g.base(), g.score()), steps);
}

TEST(AlignmentLevelsTest, StepsToTheTargetSaturateAtFour) {
  // No headroom: the steps term alone, 0.7 * (steps - 1) / 3.
  EXPECT_EQ(Grade({10, 14, 18, 20, 22}, 22, 1).score, 0.0);
  EXPECT_EQ(Grade({10, 14, 18, 20, 22}, 22, 1).level, "easy");
  EXPECT_EQ(Grade({10, 12, 14, 16, 22}, 22, 2).score, 0.233);
  EXPECT_EQ(Grade({10, 12, 14, 16, 22}, 22, 3).level, "medium");
  EXPECT_EQ(Grade({10, 11, 12, 13, 22}, 22, 4).score, 0.7);
  EXPECT_EQ(Grade({10, 11, 12, 13, 22}, 22, 4).level, "hard");
  EXPECT_EQ(Grade({10, 11, 12, 13, 22}, 22, 6).score, 0.7);
}

TEST(AlignmentLevelsTest, HeadroomLiftsALongClimbToExpert) {
  // best - greedy = 4 of best - base = 16: + 0.3 * 0.25.
  const Difficulty d = Grade({10, 11, 12, 13, 22}, 26, 4);
  EXPECT_EQ(d.score, 0.775);
  EXPECT_EQ(d.level, "expert");
  EXPECT_EQ(d.details["headroom"], 4);
}

}  // namespace
}  // namespace foundry::puzzles::alignment
