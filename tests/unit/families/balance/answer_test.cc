// Typed answers of the balance family: "coin 7 heavy" for a deduction, the
// first weighing "1 2 3 4 vs 5 6 7 8" for a strategy, judged by the rules
// (for a strategy by the count-state solver), and the errors.
#include "puzzles/balance/answer.h"

#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/balance/balance.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::balance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& BL() { return TheFamily(); }

// 3 coins: 1 vs 2 tips left, 1 vs 3 balances, so coin 2 is lighter.
json Deduction() {
  return {{"mode", "deduction"},
          {"coins", 3},
          {"weighings",
           {{{"left", {1}}, {"right", {2}}, {"result", "left_heavy"}},
            {{"left", {1}}, {"right", {3}}, {"result", "balanced"}}}}};
}
const json kCoin2Lighter = {{"coin", 2}, {"heavier", false}};

json Strategy(int coins, int weighings, const std::string& variant) {
  return {{"mode", "strategy"}, {"coins", coins}, {"weighings", weighings}, {"variant", variant}};
}

Result<bool> CheckDeduction(const std::string& text) {
  return BL().CheckAnswer(Deduction(), kCoin2Lighter, text);
}

Result<bool> CheckStrategy(const json& puzzle, const std::string& text) {
  return BL().CheckAnswer(puzzle, json{{"tree", json::object()}}, text);
}

std::string Error(const Result<bool>& r) { return testing::InvalidAnswerMessage(r); }

TEST(BalanceAnswerTest, DeductionFormatsCoinAndWeight) {
  EXPECT_EQ(BL().FormatAnswer(Deduction(), kCoin2Lighter), "coin 2 light");
  EXPECT_EQ(BL().FormatAnswer(Deduction(), json{{"coin", 2}}), "");
}

TEST(BalanceAnswerTest, DeductionAcceptsTheUsualWordings) {
  for (const char* text : {"coin 2 light", "2 lighter", "COIN 2 L", "2l", "coin 2 is lighter",
                           "  Coin  2,  light. ", "light 2"}) {
    testing::ExpectJudged(CheckDeduction(text), text, true);
  }
  for (const char* text : {"coin 2 heavy", "coin 1 light", "coin 3 heavy", "1h"}) {
    testing::ExpectJudged(CheckDeduction(text), text, false);
  }
}

TEST(BalanceAnswerTest, DeductionErrorsNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(CheckDeduction("")), HasSubstr("empty"));
  EXPECT_THAT(Error(CheckDeduction("coin 4 light")),
              HasSubstr("there is no coin 4; the coins are 1..3"));
  EXPECT_THAT(Error(CheckDeduction("coin 0 light")), HasSubstr("there is no coin 0"));
  EXPECT_THAT(Error(CheckDeduction("coin light")), HasSubstr("names no coin"));
  EXPECT_THAT(Error(CheckDeduction("coin 2")), HasSubstr("does not say heavy or light"));
  EXPECT_THAT(Error(CheckDeduction("2 3 light")), HasSubstr("names two coins"));
  EXPECT_THAT(Error(CheckDeduction("2 heavy light")), HasSubstr("heavy or light twice"));
  EXPECT_THAT(Error(CheckDeduction("2 purple")), HasSubstr("unknown word 'purple'"));
  EXPECT_THAT(Error(CheckDeduction("2 light?")), HasSubstr("'?'"));
  EXPECT_THAT(Error(CheckDeduction("x")), HasSubstr("e.g. coin 5 heavy"));
}

TEST(BalanceAnswerTest, StrategyAcceptsAnyFirstWeighingThatCanFinish) {
  const json twelve = Strategy(12, 3, "unknown");
  // The classic 4 against 4, whatever the coins, in any spelling.
  for (const char* text : {"1 2 3 4 vs 5 6 7 8", "9,10,11,12 against 1,2,3,4", "5 6 7 8|1 2 3 4",
                           " 1 2 3 4 VS 5 6 7 8 "}) {
    testing::ExpectJudged(CheckStrategy(twelve, text), text, true);
  }
  // 3 against 3 leaves 6 unknown coins (12 cases) for 2 weighings (9);
  // 5 against 5 leaves 10 cases after a tilt.
  for (const char* text : {"1 2 3 vs 4 5 6", "1 2 3 4 5 vs 6 7 8 9 10", "1 vs 2"}) {
    testing::ExpectJudged(CheckStrategy(twelve, text), text, false);
  }
}

TEST(BalanceAnswerTest, StrategyVariants) {
  // Reference: 13 coins in 3 weighings, 5 against 4 and the genuine coin 0.
  const json thirteen = Strategy(13, 3, "reference");
  EXPECT_TRUE(*CheckStrategy(thirteen, "1 2 3 4 5 vs 6 7 8 9 0"));
  EXPECT_TRUE(*CheckStrategy(thirteen, "0 1 2 3 4 vs 5 6 7 8 9"));
  EXPECT_FALSE(*CheckStrategy(thirteen, "1 2 3 4 vs 5 6 7 8"));
  // Heavier: 9 coins in 2 weighings, 3 against 3.
  const json nine = Strategy(9, 2, "heavier");
  EXPECT_TRUE(*CheckStrategy(nine, "1 2 3 vs 4 5 6"));
  EXPECT_FALSE(*CheckStrategy(nine, "1 2 vs 3 4"));
  EXPECT_FALSE(*CheckStrategy(nine, "1 2 3 4 vs 5 6 7 8"));
}

TEST(BalanceAnswerTest, StrategyErrorsNameTheProblemAndTheForm) {
  const json twelve = Strategy(12, 3, "unknown");
  EXPECT_THAT(Error(CheckStrategy(twelve, "")), HasSubstr("empty"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 2 3 4")),
              HasSubstr("does not separate the pans with vs"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 2 vs 3")), HasSubstr("the pans hold 2 and 1 coins"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 vs 13")),
              HasSubstr("there is no coin 13; the coins are 1..12"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "0 vs 1")), HasSubstr("there is no coin 0"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 1 vs 2 3")),
              HasSubstr("coin 1 is on the scale twice"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 vs 1")), HasSubstr("twice"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "vs 2")), HasSubstr("the left pan is empty"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 vs 2 vs 3")), HasSubstr("more than two pans"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "1 x vs 2 3")), HasSubstr("'x', not a coin number"));
  EXPECT_THAT(Error(CheckStrategy(twelve, "?")), HasSubstr("e.g. 1 2 vs 3 4"));
  EXPECT_THAT(Error(CheckStrategy(Strategy(13, 3, "reference"), "1 vs 14")),
              HasSubstr("the coins are 0..13 (0 the genuine one)"));
}

TEST(BalanceAnswerTest, GeneratedStrategiesTakeTheirTreesFirstWeighing) {
  for (const char* variant : {"unknown", "heavier", "reference"}) {
    SCOPED_TRACE(variant);
    const Params params = *BL().MakeParams(
        std::map<std::string, std::string>{{"mode", "strategy"}, {"variant", variant}});
    testing::ExpectGeneratedTakeTheirAnswer(
        BL(), params, 3, 11, 200,
        [](const Accepted&, const std::string& answer) { EXPECT_THAT(answer, HasSubstr(" vs ")); });
  }
}

TEST(BalanceAnswerTest, PromptsSayWhatToType) {
  EXPECT_THAT(BL().AnswerPrompt(Deduction()), HasSubstr("e.g. coin 5 heavy"));
  EXPECT_THAT(BL().AnswerPrompt(Strategy(12, 3, "unknown")), HasSubstr("Type the first weighing"));
  EXPECT_THAT(BL().AnswerPrompt(Strategy(1, 1, "reference")), HasSubstr("e.g. 1 vs 0"));
}

TEST(BalanceSvgTest, DeductionMarksTheCounterfeitOnlyWithTheSolution) {
  const std::string bare = BL().RenderSvg(Deduction(), nullptr);
  const std::string solved = BL().RenderSvg(Deduction(), &kCoin2Lighter);
  EXPECT_THAT(bare, HasSubstr("left heavier"));
  EXPECT_THAT(bare, HasSubstr(">balance</text>"));
  EXPECT_THAT(bare, ::testing::Not(HasSubstr("Answer:")));
  EXPECT_THAT(solved, HasSubstr("Answer: coin 2 is lighter."));
  EXPECT_EQ(solved.substr(solved.size() - 6), "</svg>");
}

TEST(BalanceSvgTest, StrategyDrawsTheTreeOnlyWithTheSolution) {
  const Params params = *BL().MakeParams(std::map<std::string, std::string>{{"mode", "strategy"}});
  for (uint64_t i = 0;; ++i) {
    ASSERT_LT(i, 200u);
    Rng rng = CandidateRng(5, i);
    Candidate c = BL().Generate(rng, params);
    const auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    const std::string bare = BL().RenderSvg(a->puzzle, nullptr);
    const std::string solved = BL().RenderSvg(a->puzzle, &a->solution);
    EXPECT_THAT(bare, ::testing::Not(HasSubstr("weigh ")));
    EXPECT_THAT(solved, HasSubstr("A strategy:"));
    EXPECT_THAT(solved, HasSubstr(">weigh "));
    EXPECT_THAT(solved, HasSubstr("left heavy:"));
    break;
  }
}

}  // namespace
}  // namespace foundry::puzzles::balance
