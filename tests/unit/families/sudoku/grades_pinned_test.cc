// The grades the grader gives a fixed set of puzzles, pinned. A stored
// puzzle's difficulty is checked again by Verify (and `foundry verify`)
// against a new grade, so a change to the grader that moves any grade, even
// one count of one technique, would fail the puzzles already stored: speed
// work on the grader (grading_logic.h) must leave every grade as it was.
//
// A change meant to move grades (a new technique, say) rewrites the file,
// same puzzles, with FOUNDRY_WRITE_PINNED_GRADES=FILE set for one run of
// this test; stores made before it then fail `foundry verify`.
#include <cstdlib>
#include <fstream>
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

// The pinned file's opening comment, as a rewrite writes it.
constexpr std::string_view kHeader =
    "// Puzzles of every shape with the grades the grader gives them, for\n"
    "// grades_pinned_test.cc: one line a puzzle, \"SHAPE GRID\" then for\n"
    "// max_level 0, 1, 2 and 3 \"LEVEL:USES:OPEN_WHEN_STUCK\" (USES in the\n"
    "// order of grader.h's Technique). Data, not code: rewritten only on\n"
    "// purpose (grades_pinned_test.cc says how).\n";

// "LEVEL:USES:OPEN_WHEN_STUCK" of a grade, as the pinned file spells it.
std::string Summary(const Grade& g) {
  std::string s = std::to_string(g.level) + ":";
  for (int i = 0; i < kTechniqueCount; ++i) s += (i ? "," : "") + std::to_string(g.uses[i]);
  return s + ":" + std::to_string(g.unsolved_when_stuck);
}

TEST(SudokuGrader, GradesOfThePinnedPuzzlesNeverMove) {
  std::istringstream lines{std::string(kPinned)};
  std::string line, rewritten;
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
    rewritten += shape_name + " " + grid_text;
    for (int max_level = 0; max_level <= 3; ++max_level) {
      std::string want;
      fields >> want;
      const Grade g = GradePuzzle(*shape, *grid, max_level);
      EXPECT_EQ(Summary(g), want) << shape_name << " " << grid_text << " max_level " << max_level;
      if (max_level == 3 && g.level >= 2) ++hard_or_more;
      rewritten += " " + Summary(g);
    }
    rewritten += "\n";
    ++puzzles;
  }
  if (const char* path = std::getenv("FOUNDRY_WRITE_PINNED_GRADES")) {
    std::ofstream out(path);
    out << kHeader << "R\"(\n" << rewritten << ")\"\n";
    ASSERT_TRUE(out.good()) << "cannot write " << path;
  }
  EXPECT_EQ(puzzles, 183);
  EXPECT_GT(hard_or_more, 50);  // the scans above pairs are what the file is for
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
