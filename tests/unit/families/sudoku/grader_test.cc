// The grader's techniques one at a time (grading_logic.h): every step any
// technique takes keeps the puzzle's solution, on every shape, and each
// technique is seen to take steps. The order the grader tries them in is
// checked by sudoku_test.cc's grader tests; here each technique goes first,
// so that the rare ones (quads, swordfish) get many chances.
#include "puzzles/sudoku/grading_logic.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {
namespace {

constexpr std::array<Technique, kTechniqueCount> kAll = {
    Technique::kNakedSingle,  Technique::kHiddenSingle, Technique::kLockedCandidates,
    Technique::kNakedPair,    Technique::kHiddenPair,   Technique::kNakedTriple,
    Technique::kHiddenTriple, Technique::kXWing,        Technique::kXYWing,
    Technique::kSwordfish,    Technique::kNakedQuad,    Technique::kHiddenQuad};

// Whether `logic` still allows `solution`: each placed digit is the
// solution's, each open cell keeps the solution's digit as a candidate.
template <int R, int C>
::testing::AssertionResult KeepsSolution(const grading::GradingLogic<R, C>& logic,
                                         const Grid& solution) {
  for (size_t c = 0; c < solution.size(); ++c) {
    const int placed = logic.digits()[c];
    if (placed != 0 && placed != solution[c]) {
      return ::testing::AssertionFailure() << "cell " << c << " placed " << placed;
    }
    if (placed == 0 && !(logic.candidates()[c] >> (solution[c] - 1) & 1)) {
      return ::testing::AssertionFailure() << "cell " << c << " lost " << int{solution[c]};
    }
  }
  return ::testing::AssertionSuccess();
}

// For `puzzles` minimal puzzles of the shape and each technique t: t is
// applied whenever it finds a step, the singles otherwise, until neither
// does; the solution must survive every step. Returns the steps per
// technique.
template <int R, int C>
std::array<int, kTechniqueCount> StepsKeepingTheSolution(int puzzles) {
  const Shape shape{R, C};
  std::array<int, kTechniqueCount> steps{};
  for (int i = 0; i < puzzles; ++i) {
    Rng rng(9000 + i);
    const Grid solution = RandomSolution(shape, rng);
    RemovalOptions options;
    options.max_check_nodes = 20000;
    const Grid puzzle = RemoveClues(shape, solution, rng, options);
    if (puzzle.empty()) continue;
    for (Technique t : kAll) {
      grading::GradingLogic<R, C> logic(puzzle);
      for (int step = 0; step < 4 * R * C * R * C && logic.open() > 0; ++step) {
        if (logic.Apply(t)) {
          ++steps[static_cast<int>(t)];
        } else if (!logic.Apply(Technique::kNakedSingle) &&
                   !logic.Apply(Technique::kHiddenSingle)) {
          break;
        }
        EXPECT_FALSE(logic.broken()) << shape.Name() << " puzzle " << i;
        EXPECT_TRUE(KeepsSolution(logic, solution))
            << shape.Name() << " puzzle " << i << " after " << TechniqueName(t);
        if (logic.broken()) break;
      }
    }
  }
  return steps;
}

TEST(SudokuGradingLogic, EveryStepKeepsTheSolution) {
  std::array<int, kTechniqueCount> total{};
  auto add = [&](const std::array<int, kTechniqueCount>& s) {
    for (int t = 0; t < kTechniqueCount; ++t) total[t] += s[t];
  };
  add(StepsKeepingTheSolution<2, 2>(40));
  add(StepsKeepingTheSolution<2, 3>(40));
  add(StepsKeepingTheSolution<3, 3>(120));
  add(StepsKeepingTheSolution<3, 4>(6));
  add(StepsKeepingTheSolution<4, 4>(2));
  for (Technique t : kAll) {
    EXPECT_GE(total[static_cast<int>(t)], 5) << TechniqueName(t) << " took too few steps to judge";
  }
}

// A grid the grader fills by logic has that one solution and no other:
// Verify (sudoku.cc) skips its counting search on that promise. Random
// subsets of random grids, most of them with many solutions, each graded
// and counted: no grid with two solutions may come out filled, and every
// filled one is its only solution; a stuck one keeps every solution among
// its candidates. Returns how many were filled and how many with two
// solutions logic still took steps on.
template <int R, int C>
std::pair<int, int> FilledOnlyWhenUnique(int grids, uint64_t seed) {
  const Shape shape{R, C};
  int filled = 0, several_with_steps = 0;
  Rng rng(seed);
  for (int i = 0; i < grids; ++i) {
    const Grid solution = RandomSolution(shape, rng);
    Grid g = solution;
    const double keep = 0.25 + 0.5 * static_cast<double>(rng.Below(1000)) / 1000.0;
    for (auto& v : g) {
      if (!rng.Chance(keep)) v = 0;
    }
    const Grade grade = GradePuzzle(shape, g);
    Grid only;
    const int count = CountSolutions(shape, g, 2, &only);
    const bool full = std::find(grade.filled.begin(), grade.filled.end(), 0) == grade.filled.end();
    if (full && !grade.contradiction) {
      ++filled;
      EXPECT_EQ(count, 1) << shape.Name() << " grid " << i << ": " << GridToString(g);
      EXPECT_EQ(grade.filled, only) << shape.Name() << " grid " << i;
    } else if (count == 2 && grade.filled != g) {
      ++several_with_steps;
    }
    // Stuck: the digits left are every solution's (the grid's own among
    // them), and counting within them gives the puzzle's count.
    if (!grade.candidates.empty()) {
      for (int c = 0; c < shape.cells(); ++c) {
        EXPECT_TRUE(grade.candidates[c] >> (solution[c] - 1) & 1)
            << shape.Name() << " grid " << i << " cell " << c;
      }
      EXPECT_EQ(CountSolutionsWithin(shape, grade.candidates, 2), count)
          << shape.Name() << " grid " << i << ": " << GridToString(g);
    }
  }
  return {filled, several_with_steps};
}

TEST(SudokuGradingLogic, FillsOnlyGridsWithOneSolution) {
  for (auto [filled, several] :
       {FilledOnlyWhenUnique<2, 2>(300, 1), FilledOnlyWhenUnique<2, 3>(300, 2),
        FilledOnlyWhenUnique<3, 3>(600, 3), FilledOnlyWhenUnique<3, 4>(40, 4)}) {
    EXPECT_GT(filled, 5);
    EXPECT_GT(several, 5);
  }
}

TEST(SudokuGradingLogic, ClashingGivensAreBroken) {
  Grid puzzle(81, 0);
  puzzle[0] = 5;
  puzzle[8] = 5;  // the same row
  grading::GradingLogic<3, 3> logic(puzzle);
  EXPECT_TRUE(logic.broken());
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
