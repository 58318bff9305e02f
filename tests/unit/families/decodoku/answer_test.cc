// Typed answers and the drawing of the decodoku family: moves as x,y and a
// direction (or >x,y), any legal clearing within par is right; the errors;
// the SVG grid.
#include "puzzles/decodoku/answer.h"

#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/decodoku/decodoku.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const Family& DK() { return TheFamily(); }

// A 3x3 grid with 5 and 5 side by side on the top row: one move clears it,
// either number onto the other.
json Small() {
  return {{"size", 3},
          {"grid", {{5, 5, 0}, {0, 0, 0}, {0, 0, 0}}},
          {"clusters", {{1, 1, 0}, {0, 0, 0}, {0, 0, 0}}}};
}
const json kSolution = {{"moves", {{0, 0, 1, 0}}}, {"par", 1}};

Result<bool> Check(const std::string& text) { return DK().CheckAnswer(Small(), kSolution, text); }

std::string Error(const std::string& text) {
  return testing::InvalidAnswerMessage(Check(text), text);
}

TEST(DecodokuAnswerTest, FormatsSquareAndDirection) {
  EXPECT_EQ(DK().FormatAnswer(Small(), kSolution), "0,0R");
  const json four = {{"moves", {{1, 1, 1, 0}, {1, 0, 1, 1}, {2, 2, 1, 2}, {1, 2, 1, 1}}},
                     {"par", 4}};
  EXPECT_EQ(DK().FormatAnswer(Small(), four), "1,1U 1,0D 2,2L 1,2U");
  EXPECT_EQ(DK().FormatAnswer(Small(), json{{"moves", {{0, 0, 2, 0}}}, {"par", 1}}), "");
}

TEST(DecodokuAnswerTest, AcceptsTheUsualWritings) {
  for (const char* text : {"0,0R", "0,0 r", "(0, 0) right", "0 0 R", "0,0>1,0", "0,0 -> 1,0",
                           "1,0L", "1,0 left;", " 0,0R\n"}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(DecodokuAnswerTest, JudgesByReplayingWithinPar) {
  EXPECT_FALSE(*Check("0,0D"));       // the grid is not cleared
  EXPECT_FALSE(*Check("0,0L"));       // off the grid
  EXPECT_FALSE(*Check("2,2U"));       // no number there
  EXPECT_FALSE(*Check("0,0D 0,1U"));  // two moves, par is 1
  EXPECT_FALSE(*Check("none"));
  // Within a larger par, a longer clearing is right.
  const json par3 = {{"moves", {{0, 0, 1, 0}}}, {"par", 3}};
  EXPECT_TRUE(*DK().CheckAnswer(Small(), par3, "0,0D 0,1U 0,0R"));
}

TEST(DecodokuAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error("3,0R"), HasSubstr("there is no square 3,0 (x and y are 0..2)"));
  EXPECT_THAT(Error("0,99999999999999999999R"), HasSubstr("there is no square"));
  EXPECT_THAT(Error("0,0"), HasSubstr("move 1 '0,0' has no direction"));
  EXPECT_THAT(Error("0,0R 1,1"), HasSubstr("move 2"));
  EXPECT_THAT(Error("0,0X"), HasSubstr("unknown direction 'x'"));
  EXPECT_THAT(Error("0,0>2,0"), HasSubstr("2,0 is not next to 0,0"));
  EXPECT_THAT(Error("0,0>"), HasSubstr("no target square"));
  EXPECT_THAT(Error("R"), HasSubstr("does not start with a square x,y"));
  EXPECT_THAT(Error("?"), HasSubstr("e.g. 0,1R 2,3U"));
  auto bad_solution = DK().CheckAnswer(Small(), json{{"moves", 3}}, "0,0R");
  ASSERT_FALSE(bad_solution.ok());
  EXPECT_EQ(bad_solution.status().code(), Status::Code::kInvalidArgument);
}

TEST(DecodokuAnswerTest, PromptGivesThePar) {
  EXPECT_EQ(
      DK().AnswerPrompt(Small()),
      "Clear the grid in at most 1 move: type each move as the number's square x,y (from 0 at "
      "the top left) and a direction U, D, L or R, e.g. 0,1R 2,3U.");
}

TEST(DecodokuAnswerTest, GeneratedPuzzlesTakeTheirFormattedAnswer) {
  const Params params = *DK().MakeParams(std::map<std::string, std::string>{});
  testing::ExpectGeneratedTakeTheirAnswer(
      DK(), params, 5, 6, 300, [](const Accepted& a, const std::string&) {
        const int par = a.solution["par"].get<int>();
        EXPECT_THAT(DK().AnswerPrompt(a.puzzle),
                    HasSubstr("at most " + std::to_string(par) + " moves"));
      });
}

TEST(DecodokuSvgTest, NumbersAlwaysMovesOnlyWithTheSolution) {
  const std::string bare = DK().RenderSvg(Small(), nullptr);
  const std::string solved = DK().RenderSvg(Small(), &kSolution);
  for (const std::string& svg : {bare, solved}) {
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_THAT(svg, HasSubstr(">5</text>"));
  }
  EXPECT_THAT(bare, Not(HasSubstr("Par ")));
  EXPECT_THAT(solved, HasSubstr("Par 1."));
  EXPECT_THAT(solved, HasSubstr("1. 0,0R"));
  EXPECT_THAT(solved, HasSubstr("<path"));  // the arrow's head
}

}  // namespace
}  // namespace foundry::puzzles::decodoku
