// Typed answers and the drawing of the sudoku family: rows separated by '/'
// (or none), letters above 9 in either case, judged by the rules and the
// givens; the errors; the SVG grid.
#include "puzzles/sudoku/answer.h"

#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/rng.h"
#include "puzzles/sudoku/sudoku.h"

namespace foundry::puzzles::sudoku {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const Family& SD() { return TheFamily(); }

// A full grid of box rows x box cols by the usual shifted pattern, as text.
std::string PatternGrid(int br, int bc) {
  const int n = br * bc;
  std::string s;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const int v = (bc * (r % br) + r / br + c) % n + 1;
      s += static_cast<char>(v <= 9 ? '0' + v : 'A' + v - 10);
    }
  }
  return s;
}

// The pattern with only its first row given (not unique; enough to judge).
json PatternPuzzle(int br, int bc) {
  std::string grid = PatternGrid(br, bc);
  for (size_t i = static_cast<size_t>(br * bc); i < grid.size(); ++i) grid[i] = '.';
  return {{"box", {br, bc}}, {"grid", grid}};
}

const json kPuzzle = PatternPuzzle(3, 3);
const json kSolution = {{"grid", PatternGrid(3, 3)}};

Result<bool> Check(const std::string& text) { return SD().CheckAnswer(kPuzzle, kSolution, text); }

std::string Error(const std::string& text) {
  return testing::InvalidAnswerMessage(Check(text), text);
}

std::string Rows(const std::string& flat, int n, const std::string& sep) {
  std::string out;
  for (int r = 0; r < n; ++r)
    out += (r ? sep : "") + flat.substr(static_cast<size_t>(r * n), static_cast<size_t>(n));
  return out;
}

TEST(SudokuAnswerTest, FormatsRowsSeparatedBySlashes) {
  EXPECT_EQ(SD().FormatAnswer(kPuzzle, kSolution), Rows(PatternGrid(3, 3), 9, "/"));
  EXPECT_EQ(SD().FormatAnswer(kPuzzle, json{{"grid", "123"}}), "");
}

TEST(SudokuAnswerTest, AcceptsSlashesSpacesOrNeither) {
  const std::string flat = PatternGrid(3, 3);
  for (const std::string& text : {Rows(flat, 9, "/"), flat, Rows(flat, 9, "\n"),
                                  Rows(flat, 9, " / "), " " + Rows(flat, 9, "/") + "/ "}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(SudokuAnswerTest, JudgesByTheRulesAndTheGivens) {
  std::string flat = PatternGrid(3, 3);
  // Another valid grid: the pattern with two digits swapped everywhere
  // keeps the rules but not the first row's givens.
  std::string relabelled = flat;
  for (char& ch : relabelled) ch = ch == '1' ? '2' : ch == '2' ? '1' : ch;
  EXPECT_FALSE(*Check(relabelled));
  // Two cells of a row swapped: the columns break.
  std::string swapped = flat;
  std::swap(swapped[9], swapped[10]);
  EXPECT_FALSE(*Check(swapped));
  // Rows 2 and 3 of the same band exchanged: still a valid grid with the
  // same givens, so right, though not the stored one.
  std::string rows = flat;
  std::swap_ranges(rows.begin() + 9, rows.begin() + 18, rows.begin() + 18);
  EXPECT_TRUE(*Check(rows));
}

TEST(SudokuAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  const std::string flat = PatternGrid(3, 3);
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error(flat.substr(1)), HasSubstr("has 80 digits, the grid 81 cells"));
  EXPECT_THAT(Error(flat + "1"), HasSubstr("has 82 digits"));
  std::string dotted = flat;
  dotted[12] = '.';
  EXPECT_THAT(Error(dotted), HasSubstr("row 2 column 4 holds '.', not a digit 1..9"));
  dotted[12] = '0';
  EXPECT_THAT(Error(dotted), HasSubstr("holds '0'"));
  dotted[12] = 'A';
  EXPECT_THAT(Error(dotted), HasSubstr("holds 'A'"));
  EXPECT_THAT(Error(Rows(flat, 9, "/").substr(10)), HasSubstr("has 8 rows, the grid 9"));
  std::string short_row = Rows(flat, 9, "/");
  short_row.erase(21, 1);  // a digit of row 3
  EXPECT_THAT(Error(short_row), HasSubstr("row 3 has 8 symbols, not 9"));
  EXPECT_THAT(Error("?"),
              HasSubstr("type the 9 rows of 9 digits, top to bottom, separated by '/'"));
  // A character of two bytes is one symbol, quoted whole (it was counted
  // twice, and its first byte alone made the message invalid UTF-8).
  std::string accented = Rows(flat, 9, "/");
  accented.replace(0, 1, "\xC3\xA9");  // é for the first digit
  EXPECT_THAT(Error(accented), HasSubstr("row 1 column 1 holds '\xC3\xA9', not a digit 1..9"));
}

TEST(SudokuAnswerTest, LettersAboveNineInEitherCase) {
  const json puzzle = PatternPuzzle(4, 4);
  const json solution = {{"grid", PatternGrid(4, 4)}};
  const std::string answer = SD().FormatAnswer(puzzle, solution);
  EXPECT_THAT(answer, HasSubstr("G"));
  std::string lower = answer;
  for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'G' ? ch - 'A' + 'a' : ch);
  EXPECT_TRUE(*SD().CheckAnswer(puzzle, solution, answer));
  EXPECT_TRUE(*SD().CheckAnswer(puzzle, solution, lower));
  std::string beyond = answer;
  beyond[0] = 'H';
  auto r = SD().CheckAnswer(puzzle, solution, beyond);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("not a digit 1..G"));
  EXPECT_THAT(SD().AnswerPrompt(puzzle), HasSubstr("(A..G for 10..16)"));
}

TEST(SudokuAnswerTest, GeneratedPuzzlesTakeTheirFormattedAnswer) {
  const Params params = *SD().MakeParams(std::map<std::string, std::string>{{"box", "2x3"}});
  testing::ExpectGeneratedTakeTheirAnswer(
      SD(), params, 3, 8, 50, [](const Accepted& a, const std::string& answer) {
        EXPECT_EQ(answer.size(), 36u + 5u);
        EXPECT_EQ(
            SD().AnswerPrompt(a.puzzle),
            "Type the 6 rows of 6 digits, top to bottom, separated by '/', e.g. 123456/456123/...");
      });
}

TEST(SudokuSvgTest, GivensInBlackSolutionDigitsInBlue) {
  const std::string bare = SD().RenderSvg(kPuzzle, nullptr);
  const std::string solved = SD().RenderSvg(kPuzzle, &kSolution);
  EXPECT_EQ(bare.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_THAT(bare, HasSubstr("stroke-width=\"3\""));  // box borders
  EXPECT_THAT(bare, Not(HasSubstr("fill=\"#1565c0\"")));
  EXPECT_THAT(solved, HasSubstr("fill=\"#1565c0\""));
  size_t blue = 0;
  for (size_t at = solved.find("fill=\"#1565c0\""); at != std::string::npos;
       at = solved.find("fill=\"#1565c0\"", at + 1))
    ++blue;
  EXPECT_EQ(blue, 72u);  // the 81 cells less the 9 givens
  const json broken = {{"grid", "12"}};
  EXPECT_THAT(SD().RenderSvg(kPuzzle, &broken), HasSubstr("invalid solution"));
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
