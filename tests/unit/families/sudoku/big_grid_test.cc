// The 12x12 and 16x16 shapes: the counting search's locked candidates
// against DLX (dlx.h, Verify's independent count), and the generator's
// node budget that gives up a draft instead of searching for seconds.
#include <variant>

#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/dlx.h"
#include "puzzles/sudoku/generator.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {
namespace {

// Counts to two agree with DLX on grids with few givens left, where the
// search needs the locked candidates most (and a wrong elimination would
// lose a solution).
TEST(SudokuBigGrids, CountsAgreeWithDlxOnSparseGrids) {
  Rng rng(5);
  int unique = 0, several = 0;
  for (const Shape shape : {Shape{3, 4}, Shape{4, 4}}) {
    for (int trial = 0; trial < 40; ++trial) {
      Grid g = RandomSolution(shape, rng);
      // Keep 45-60% of the cells: around the edge of uniqueness.
      const double keep = 0.45 + 0.15 * rng.Below(100) / 100.0;
      for (uint8_t& v : g) {
        if (!rng.Chance(keep)) v = 0;
      }
      const int ours = CountSolutions(shape, g, 2);
      ASSERT_EQ(ours, DlxCountSolutions(shape, g, 2)) << shape.Name() << " trial " << trial;
      (ours == 1 ? unique : several) += 1;
    }
  }
  EXPECT_GT(unique, 5);
  EXPECT_GT(several, 5);
}

TEST(SudokuBigGrids, SixteenBySixteenPuzzlesAreUniqueAndMinimal) {
  GenerateOptions options;
  options.shape = Shape{4, 4};
  int accepted = 0;
  for (uint64_t i = 0; accepted < 3 && i < 20; ++i) {
    Rng rng = CandidateRng(11, i);
    const Candidate c = Generate(rng, options);
    const auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;  // a draft given up (search_limit)
    ++accepted;
    const auto parsed = ParsePuzzle(a->puzzle);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    const Grid& g = parsed->grid;
    EXPECT_EQ(DlxCountSolutions(options.shape, g, 2), 1);
    EXPECT_TRUE(IsMinimal(options.shape, g, false));
  }
  EXPECT_EQ(accepted, 3);
}

TEST(SudokuBigGrids, ADraftPastTheNodeBudgetIsGivenUp) {
  GenerateOptions options;
  options.shape = Shape{4, 4};
  options.max_check_nodes = 1;  // no 16x16 removal check settles in one node
  int limited = 0;
  for (uint64_t i = 0; i < 5; ++i) {
    Rng rng = CandidateRng(11, i);
    const Candidate c = Generate(rng, options);
    const auto* r = std::get_if<Rejected>(&c);
    limited += r != nullptr && r->reason == "search_limit";
  }
  EXPECT_EQ(limited, 5);
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
