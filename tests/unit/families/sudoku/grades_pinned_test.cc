// The grades the grader gives a fixed set of puzzles, pinned. A stored
// puzzle's difficulty is checked again by Verify (and `foundry verify`)
// against a new grade, so a change to the grader that moves any grade, even
// one count of one technique, would fail the puzzles already stored: speed
// work on the grader (grading_logic.h) must leave every grade as it was.
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {
namespace {

constexpr std::string_view kPinned =
#include "grades_pinned.inc"
    ;

// "LEVEL:USES:OPEN_WHEN_STUCK" of a grade, as the pinned file spells it.
std::string Summary(const Grade& g) {
  std::string s = std::to_string(g.level) + ":";
  for (int i = 0; i < kTechniqueCount; ++i) s += (i ? "," : "") + std::to_string(g.uses[i]);
  return s + ":" + std::to_string(g.unsolved_when_stuck);
}

TEST(SudokuGrader, GradesOfThePinnedPuzzlesNeverMove) {
  std::istringstream lines{std::string(kPinned)};
  std::string line;
  int puzzles = 0, hard_or_more = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string shape_name, grid_text;
    fields >> shape_name >> grid_text;
    const Result<Shape> shape = ShapeFromName(shape_name);
    ASSERT_TRUE(shape.ok()) << line;
    const Result<Grid> grid = GridFromString(*shape, grid_text);
    ASSERT_TRUE(grid.ok()) << line;
    for (int max_level = 0; max_level <= 3; ++max_level) {
      std::string want;
      fields >> want;
      const Grade g = GradePuzzle(*shape, *grid, max_level);
      EXPECT_EQ(Summary(g), want) << shape_name << " " << grid_text << " max_level " << max_level;
      if (max_level == 3 && g.level >= 2) ++hard_or_more;
    }
    ++puzzles;
  }
  EXPECT_EQ(puzzles, 183);
  EXPECT_GT(hard_or_more, 50);  // the scans above pairs are what the file is for
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
