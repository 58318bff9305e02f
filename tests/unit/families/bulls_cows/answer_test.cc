// Typed answers and the drawing of the bulls-cows family: the accepted form
// of a code, judging by the clues, the errors, and the SVG.
#include "puzzles/bulls_cows/answer.h"

#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/bulls_cows/bulls_cows.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::bulls_cows {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& BC() { return TheFamily(); }

// The seed's example clue (1235 scores 1 bull, 2 cows against 1953) and one
// more; other secrets fit too, which is what the judge must allow.
json SeedPuzzle(bool leading_zero = false) {
  return {{"length", 4},
          {"leading_zero", leading_zero},
          {"clues", {{{"guess", "1235"}, {"bulls", 1}, {"cows", 2}}}}};
}
const json kSolution = {{"secret", "1953"}};

Result<bool> Check(const std::string& text, bool leading_zero = false) {
  return BC().CheckAnswer(SeedPuzzle(leading_zero), kSolution, text);
}

std::string Error(const std::string& text, bool leading_zero = false) {
  return testing::InvalidAnswerMessage(Check(text, leading_zero), text);
}

TEST(BullsCowsAnswerTest, ScoresAsTheSeed) {
  const Score s = ScoreGuess("1235", "1953");
  EXPECT_EQ(s.bulls, 1);
  EXPECT_EQ(s.cows, 2);
  EXPECT_EQ(ScoreGuess("1953", "1953").bulls, 4);
  EXPECT_EQ(ScoreGuess("4567", "1953").cows, 1);
}

TEST(BullsCowsAnswerTest, AcceptsTheDigitsWithAnySpacing) {
  EXPECT_EQ(BC().FormatAnswer(SeedPuzzle(), kSolution), "1953");
  for (const char* text : {"1953", " 1 9 5 3 ", "19\n53"}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(BullsCowsAnswerTest, JudgesByTheClues) {
  // 1325: two bulls against 1235; 1523: one bull, three cows.
  EXPECT_FALSE(*Check("1325"));
  EXPECT_FALSE(*Check("1523"));
  EXPECT_FALSE(*Check("4567"));
  // 1593 scores 1 bull, 2 cows too: right by the clue, though not stored.
  EXPECT_TRUE(*Check("1593"));
}

TEST(BullsCowsAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error("195"), HasSubstr("has 3 digits, the secret has 4"));
  EXPECT_THAT(Error("19534"), HasSubstr("has 5 digits"));
  EXPECT_THAT(Error("19x3"), HasSubstr("'x', not a digit"));
  EXPECT_THAT(Error("1993"), HasSubstr("repeats the digit 9"));
  EXPECT_THAT(Error("0953"), HasSubstr("starts with 0"));
  EXPECT_THAT(Error("?"),
              HasSubstr("type the 4 different digits of the secret (no leading zero), e.g. 1234"));
  // With leading_zero a 0 in front is a code like any other.
  auto r = Check("0953", true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(*r);
  EXPECT_THAT(Error("?", true), HasSubstr("(it may start with 0)"));
}

TEST(BullsCowsAnswerTest, GeneratedPuzzlesTakeTheirFormattedAnswerOnly) {
  const Params params = *BC().MakeParams(std::map<std::string, std::string>{{"length", "5"}});
  testing::ExpectGeneratedTakeTheirAnswer(
      BC(), params, 5, 3, 300, [](const Accepted& a, const std::string& answer) {
        ASSERT_EQ(answer.size(), 5u);
        std::string rotated = answer.substr(1) + answer[0];  // same digits, other places
        if (rotated[0] != '0') {
          EXPECT_FALSE(*BC().CheckAnswer(a.puzzle, a.solution, rotated));
        }
      });
}

TEST(BullsCowsAnswerTest, PromptShowsTheLengthAndAnExample) {
  EXPECT_EQ(BC().AnswerPrompt(SeedPuzzle()),
            "Type the 4 different digits of the secret (no leading zero), e.g. 1234.");
}

TEST(BullsCowsSvgTest, ShowsTheCluesAndTheSecretOnlyWithTheSolution) {
  const std::string bare = BC().RenderSvg(SeedPuzzle(), nullptr);
  const std::string solved = BC().RenderSvg(SeedPuzzle(), &kSolution);
  for (const std::string& svg : {bare, solved}) {
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
    EXPECT_THAT(svg, HasSubstr(">5</text>"));  // a digit of the guess 1235
  }
  // The secret's digits are drawn in blue, only with the solution.
  EXPECT_THAT(bare, ::testing::Not(HasSubstr("fill=\"#1565c0\"")));
  EXPECT_THAT(solved, HasSubstr("fill=\"#1565c0\""));
  EXPECT_THAT(solved, HasSubstr(">9</text>"));
}

}  // namespace
}  // namespace foundry::puzzles::bulls_cows
