// nonogram family tests, through TheFamily(): generation at each level,
// Verify refusing wrong and non-unique puzzles, typed answers. The
// conformance suite (tests/unit/puzzles/conformance_test.cc) covers the
// contract; codec_test.cc the JSON, line_solver_test.cc the line solvers.
#include <gtest/gtest.h>

#include "puzzles/nonogram/board.h"
#include "puzzles/nonogram/codec.h"
#include "puzzles/nonogram/grader.h"
#include "puzzles/nonogram/nonogram.h"
#include "tests/unit/families/answer_test_util.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::nonogram {
namespace {

using foundry::puzzles::testing::ExpectVerifyAgrees;
using foundry::puzzles::testing::FirstAccepted;
using foundry::puzzles::testing::InvalidAnswerMessage;
using foundry::puzzles::testing::ParamsOrFail;

// The puzzle and solution of a grid given as strings.
std::pair<nlohmann::json, nlohmann::json> FromGrid(const std::vector<std::string>& grid) {
  const int w = static_cast<int>(grid[0].size()), h = static_cast<int>(grid.size());
  Rows rows;
  for (const std::string& s : grid) {
    uint64_t row = 0;
    for (int c = 0; c < w; ++c) row |= static_cast<uint64_t>(s[static_cast<size_t>(c)] == '#') << c;
    rows.push_back(row);
  }
  return {PuzzleJson(CluesOf(rows, w, h)), SolutionJson(rows, w)};
}

TEST(NonogramTest, EachLevelIsGeneratedAndVerifiesAtItsGrade) {
  for (const char* size : {"10", "15"}) {
    for (const char* level : {"easy", "medium", "hard", "expert"}) {
      const Params params =
          ParamsOrFail(TheFamily(), {{"width", size}, {"height", size}, {"level", level}});
      const auto puzzles = FirstAccepted(TheFamily(), params, 3, /*seed=*/11, 3000);
      ASSERT_EQ(puzzles.size(), 3u) << size << " " << level;
      for (const Accepted& a : puzzles) {
        EXPECT_EQ(a.difficulty.level, level);
        ExpectVerifyAgrees(TheFamily(), a);
        EXPECT_EQ(a.puzzle["width"], std::stoi(size));
      }
    }
  }
}

TEST(NonogramTest, OtherSizesAndDensities) {
  const Params params =
      ParamsOrFail(TheFamily(), {{"width", "7"}, {"height", "23"}, {"density", "70"}});
  const auto puzzles = FirstAccepted(TheFamily(), params, 3, /*seed=*/5, 500);
  ASSERT_EQ(puzzles.size(), 3u);
  for (const Accepted& a : puzzles) {
    EXPECT_EQ(a.puzzle["rows"].size(), 23u);
    EXPECT_EQ(a.puzzle["columns"].size(), 7u);
    EXPECT_TRUE(TheFamily().Verify(a.puzzle, a.solution).ok());
  }
  EXPECT_FALSE(TheFamily().MakeParams(std::map<std::string, std::string>{{"density", "10"}}).ok());
  EXPECT_FALSE(TheFamily().MakeParams(std::map<std::string, std::string>{{"width", "41"}}).ok());
}

TEST(NonogramTest, AWrongSolutionIsRefused) {
  const auto [puzzle, solution] = FromGrid({"##...", ".#...", ".###.", "...##", "#...#"});
  ASSERT_TRUE(TheFamily().Verify(puzzle, solution).ok());
  nlohmann::json wrong = solution;
  wrong["grid"][0] = "#....";
  EXPECT_EQ(TheFamily().Verify(puzzle, wrong).status().code(), Status::Code::kFailedPrecondition);
  wrong["grid"][0] = "#..x.";
  EXPECT_EQ(TheFamily().Verify(puzzle, wrong).status().code(), Status::Code::kInvalidArgument);
}

TEST(NonogramTest, ANonUniquePuzzleIsRefused) {
  // Two diagonal cells in a 2x2 block: the other diagonal shows the same
  // clues, so every line's clue holds both ways.
  const auto [puzzle, solution] = FromGrid({"#....", ".#...", ".....", "..###", "..###"});
  auto d = TheFamily().Verify(puzzle, solution);
  EXPECT_EQ(d.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(d.status().message().find("more than one"), std::string::npos) << d.status().ToString();
  // The other solution is right too when typed, by the rules.
  EXPECT_TRUE(*TheFamily().CheckAnswer(puzzle, solution, ".#... #.... ..... ..### ..###"));
}

TEST(NonogramTest, TheFiguresMatchEachLevelsDefinition) {
  for (const char* level : {"easy", "medium", "hard", "expert"}) {
    const Params params = ParamsOrFail(TheFamily(), {{"level", level}});
    const auto puzzles = FirstAccepted(TheFamily(), params, 4, /*seed=*/3, 3000);
    ASSERT_EQ(puzzles.size(), 4u) << level;
    for (const Accepted& a : puzzles) {
      const nlohmann::json& d = a.difficulty.details;
      const std::string l = level;
      // Later stages run only when the earlier ones stall.
      EXPECT_EQ(d["line_sweeps"] == 0, l == "easy") << d;
      EXPECT_EQ(d["probes"] == 0, l == "easy" || l == "medium") << d;
      if (l == "hard") {
        EXPECT_EQ(d["probe_layers"], 1) << d;
      }
      if (l == "expert") {
        EXPECT_TRUE(d["probe_layers"] >= 2 || d["open_after_probing"] > 0) << d;
      }
      EXPECT_EQ(d["open_after_probing"] > 0, l == "expert" && d["probe_layers"] < 2) << d;
    }
  }
}

TEST(NonogramTest, TheGradeIsTheSameWithoutTheSolutionsHint) {
  const Params params = ParamsOrFail(TheFamily(), {{"density", "45"}});
  const auto puzzles = FirstAccepted(TheFamily(), params, 40, /*seed=*/9, 2000);
  ASSERT_EQ(puzzles.size(), 40u);
  for (const Accepted& a : puzzles) {
    const ParsedPuzzle p = *ParsePuzzle(a.puzzle);
    const Rows solution = *ParseSolution(p, a.solution);
    const LineSet lines(p);
    Board with(lines), without(lines);
    const Difficulty d1 = ToDifficulty(Grade(with, &solution), p.width * p.height);
    const Difficulty d2 = ToDifficulty(Grade(without, nullptr), p.width * p.height);
    EXPECT_EQ(d1.ToJson(), d2.ToJson());
    EXPECT_EQ(d1.ToJson(), a.difficulty.ToJson());
  }
}

TEST(NonogramTest, TypedAnswers) {
  const auto [puzzle, solution] = FromGrid({"##...", ".#...", ".###.", "...##", "#...#"});
  EXPECT_EQ(TheFamily().FormatAnswer(puzzle, solution), "##... .#... .###. ...## #...#");
  for (const char* right : {"##... .#... .###. ...## #...#", "##.../.#.../.###./...##/#...#",
                            "##...\n.#...\n.###.\n...##\n#...#\n", "##....#....###....###...#",
                            "11000 01000 01110 00011 10001", "##--- -#--- -###- ---## #---#",
                            "# # . . . / . # . . . / . # # # . / . . . # # / # . . . #"}) {
    auto r = TheFamily().CheckAnswer(puzzle, solution, right);
    ASSERT_TRUE(r.ok()) << right << ": " << r.status().ToString();
    EXPECT_TRUE(*r) << right;
  }
  EXPECT_FALSE(*TheFamily().CheckAnswer(puzzle, solution, "#.... .#... .###. ...## #...#"));
  EXPECT_NE(InvalidAnswerMessage(
                TheFamily().CheckAnswer(puzzle, solution, "xx... .#... .###. ...## #...#"))
                .find("row 1 column 1"),
            std::string::npos);
  EXPECT_NE(InvalidAnswerMessage(TheFamily().CheckAnswer(puzzle, solution, "##... .#... .###."))
                .find("15 cells"),
            std::string::npos);
  EXPECT_NE(InvalidAnswerMessage(
                TheFamily().CheckAnswer(puzzle, solution, "##.... #... .###. ...## #...#"))
                .find("row 1 has 6 cells"),
            std::string::npos);
  const std::string prompt = TheFamily().AnswerPrompt(puzzle);
  EXPECT_NE(prompt.find("5 rows of 5 cells"), std::string::npos) << prompt;
}

}  // namespace
}  // namespace foundry::puzzles::nonogram
