// Swap cycles (swap_cycles.h) answer "the puzzle has a solution where this
// cell differs" without a search; every such answer is checked here by the
// search of solver.h.
#include "puzzles/sudoku/swap_cycles.h"

#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {
namespace {

// A solution of the puzzle made of `clues`' digits of `solution` in which
// `cell` is not solution[cell], counted by solver.h.
bool SearchFindsOther(const Shape& shape, const Grid& solution, const Grid& puzzle, int cell) {
  Grid g = puzzle;
  for (int v = 1; v <= shape.n(); ++v) {
    if (v == solution[cell]) continue;
    g[cell] = static_cast<uint8_t>(v);
    if (CountSolutions(shape, g, 1) > 0) return true;
  }
  return false;
}

TEST(SwapCycles, EveryFreeCycleIsASecondSolution) {
  int free_cycles = 0, searched_other = 0;
  for (const Shape& shape : {Shape{3, 3}, Shape{2, 3}, Shape{3, 4}}) {
    Rng rng(41 + shape.n());
    const int grids = shape.n() == 12 ? 6 : 60;
    for (int t = 0; t < grids; ++t) {
      const Grid solution = RandomSolution(shape, rng);
      const SwapCycles cycles(shape, solution);
      // Clue sets from sparse to dense; each cell left out is asked about.
      const double keep = 0.3 + 0.6 * static_cast<double>(rng.Below(1000)) / 1000.0;
      Grid puzzle(solution.size(), 0);
      ClueSet clues(cycles);
      for (int c = 0; c < shape.cells(); ++c) {
        if (rng.Chance(keep)) {
          puzzle[c] = solution[c];
          clues.Add(c);
        }
      }
      for (int cell = 0; cell < shape.cells(); ++cell) {
        if (puzzle[cell]) continue;
        const bool free = cycles.HasFreeCycle(cell, clues);
        if (free) {
          ++free_cycles;
          ASSERT_TRUE(SearchFindsOther(shape, solution, puzzle, cell))
              << shape.Name() << " " << GridToString(puzzle) << " cell " << cell;
        } else if (t % 4 == 0 && SearchFindsOther(shape, solution, puzzle, cell)) {
          ++searched_other;  // other solutions a two-digit swap does not reach
        }
      }
    }
  }
  EXPECT_GT(free_cycles, 200);
  EXPECT_GT(searched_other, 10);
}

TEST(SwapCycles, NoCluesLeaveEveryCycleFreeAllCluesNone) {
  Rng rng(7);
  const Shape k9{3, 3};
  const Grid solution = RandomSolution(k9, rng);
  const SwapCycles cycles(k9, solution);
  const ClueSet none(cycles);
  ClueSet all_but(cycles);
  for (int c = 0; c < 81; ++c) all_but.Add(c);
  for (int cell = 0; cell < 81; ++cell) {
    EXPECT_TRUE(cycles.HasFreeCycle(cell, none));
    all_but.Remove(cell);
    EXPECT_FALSE(cycles.HasFreeCycle(cell, all_but)) << cell;  // a cycle has 4+ cells
    all_but.Add(cell);
  }
}

// Generated minimal puzzles: each clue's removal was refused either by a
// free cycle or by the search; the cycle is never wrong about one of them.
TEST(SwapCycles, RemovalStatsCountBothWays) {
  Rng rng(99);
  RemovalStats stats;
  for (int t = 0; t < 30; ++t) {
    const Grid solution = RandomSolution(Shape{3, 3}, rng);
    const Grid puzzle = RemoveClues(Shape{3, 3}, solution, rng, RemovalOptions{}, &stats);
    ASSERT_EQ(CountSolutions(Shape{3, 3}, puzzle, 2), 1);
    ASSERT_TRUE(IsMinimal(Shape{3, 3}, puzzle, false));
  }
  EXPECT_GT(stats.swaps, 30 * 3);    // several clues per puzzle kept by a cycle
  EXPECT_GT(stats.checks, 30 * 15);  // the rest by the search
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
