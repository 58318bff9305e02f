// The generator's early ambiguity check (search.h FindOtherSolutionNear)
// against Verify's independent solution count (placement_solver.h): it may
// only ever report a second solution that exists, and on random images it
// finds most of them within the generator's budget.
#include <gtest/gtest.h>

#include "puzzles/nonogram/board.h"
#include "puzzles/nonogram/grader.h"
#include "puzzles/nonogram/placement_solver.h"
#include "puzzles/nonogram/search.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::nonogram {
namespace {

Rows RandomImage(Rng& rng, int side, double density) {
  Rows rows(static_cast<size_t>(side), 0);
  for (uint64_t& row : rows) {
    for (int c = 0; c < side; ++c) {
      if (rng.Chance(density)) row |= 1ULL << c;
    }
  }
  return rows;
}

TEST(NonogramSearchTest, FindsOnlySecondSolutionsThatExist) {
  Rng rng(41);
  int stalled = 0, found = 0, ambiguous = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const int side = trial % 2 == 0 ? 8 : 12;
    const Rows image = RandomImage(rng, side, 0.5);
    const Clues clues = CluesOf(image, side, side);
    const LineSet lines(clues);
    Board board(lines);
    const Grading g = Grade(board, &image, kMedium);
    if (!g.stopped) continue;  // line solving finished it: unique
    ++stalled;
    const SearchCount count = CountSolutions(clues, 2, 1'000'000);
    ASSERT_FALSE(count.exhausted) << trial;
    ambiguous += count.solutions > 1;
    if (FindOtherSolutionNear(board, image, 64)) {
      ++found;
      EXPECT_EQ(count.solutions, 2) << "trial " << trial << ": reported a second solution";
    }
  }
  ASSERT_GT(stalled, 300);
  ASSERT_GT(ambiguous, 200);
  // Most second solutions lie next to the image.
  EXPECT_GT(found, ambiguous * 8 / 10);
}

}  // namespace
}  // namespace foundry::puzzles::nonogram
