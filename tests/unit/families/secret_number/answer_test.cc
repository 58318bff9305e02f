// Typed answers and the drawing of the secret-number family: the accepted
// forms of a number, the errors that show the expected form, and the SVG.
#include "puzzles/secret_number/secret_number.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"

namespace foundry::puzzles::secret_number {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& SN() { return TheFamily(); }

json Rule(const std::string& subject, const std::string& op, int64_t value) {
  return {{"subject", subject}, {"op", op}, {"value", value}};
}

// The seed's two rules: only 909 fits.
json SeedPuzzle() {
  return {{"digits", 3}, {"rules", {Rule("diff:1,2", "eq", 9), Rule("diff:2,3", "eq", 9)}}};
}
const json kSolution = {{"number", 909}};

Result<bool> Check(const std::string& text) {
  return SN().CheckAnswer(SeedPuzzle(), kSolution, text);
}

std::string Error(const std::string& text) {
  return testing::InvalidAnswerMessage(Check(text), text);
}

TEST(SecretNumberAnswerTest, FormatsTheNumber) {
  EXPECT_EQ(SN().FormatAnswer(SeedPuzzle(), kSolution), "909");
  EXPECT_EQ(SN().FormatAnswer(SeedPuzzle(), json{{"number", "909"}}), "");
}

TEST(SecretNumberAnswerTest, AcceptsTheNumberWithAnySpacing) {
  for (const char* text : {"909", " 909 ", "9 0 9", "\t909\n"}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(SecretNumberAnswerTest, JudgesByTheRules) {
  for (const char* text : {"908", "919", "999", "100"}) {
    testing::ExpectJudged(Check(text), text, false);
  }
  // Rules that several numbers satisfy (not a valid puzzle, but the judge
  // reads the rules, not the stored solution): each of them is right.
  const json loose = {{"digits", 2}, {"rules", {Rule("digit:1", "eq", 4)}}};
  for (const char* text : {"40", "47", "49"}) {
    testing::ExpectJudged(SN().CheckAnswer(loose, json{{"number", 40}}, text), text, true);
  }
  EXPECT_FALSE(*SN().CheckAnswer(loose, json{{"number", 40}}, "50"));
}

TEST(SecretNumberAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error("   "), HasSubstr("empty"));
  EXPECT_THAT(Error("90"), HasSubstr("has 2 digits, the number has 3"));
  EXPECT_THAT(Error("9090"), HasSubstr("has 4 digits"));
  EXPECT_THAT(Error("9a9"), HasSubstr("'a', not a digit"));
  EXPECT_THAT(Error("-909"), HasSubstr("not a digit"));
  EXPECT_THAT(Error("099"), HasSubstr("starts with 0"));
  EXPECT_THAT(Error("x"), HasSubstr("type the 3-digit number (no leading zero), e.g. 123"));
  EXPECT_THAT(Error(std::string(200, '9')), HasSubstr("...'"));  // quoted, cut short
}

TEST(SecretNumberAnswerTest, AMalformedPuzzleIsInvalidArgument) {
  auto r = SN().CheckAnswer(json{{"digits", 9}}, kSolution, "909");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

TEST(SecretNumberAnswerTest, PromptShowsTheLengthAndAnExample) {
  EXPECT_EQ(SN().AnswerPrompt(SeedPuzzle()),
            "Type the 3-digit number (no leading zero), e.g. 123.");
  json five = SeedPuzzle();
  five["digits"] = 5;
  EXPECT_THAT(SN().AnswerPrompt(five), HasSubstr("5-digit number (no leading zero), e.g. 12345"));
}

TEST(SecretNumberSvgTest, ShowsTheRulesAndTheDigitsOnlyWithTheSolution) {
  const std::string bare = SN().RenderSvg(SeedPuzzle(), nullptr);
  const std::string solved = SN().RenderSvg(SeedPuzzle(), &kSolution);
  for (const std::string& svg : {bare, solved}) {
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
    EXPECT_THAT(svg, HasSubstr("The difference of my first two digits is 9."));
    EXPECT_THAT(svg, HasSubstr("The difference of my last two digits is 9."));
  }
  EXPECT_THAT(bare, ::testing::Not(HasSubstr(">9</text>")));
  EXPECT_THAT(solved, HasSubstr(">9</text>"));
  EXPECT_THAT(solved, HasSubstr(">0</text>"));
  const json broken = {{"number", 12}};
  EXPECT_THAT(SN().RenderSvg(SeedPuzzle(), &broken), HasSubstr("invalid solution"));
  EXPECT_THAT(SN().RenderSvg(json{{"digits", "<&>"}}, nullptr), HasSubstr("invalid puzzle"));
}

}  // namespace
}  // namespace foundry::puzzles::secret_number
