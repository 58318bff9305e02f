// Typed answers and the drawing of the zebra family: "category: item, item,
// ..." entries in house order, names matched ignoring case and spacing,
// judged by the clues; the errors; the SVG table and its escaping.
#include "puzzles/zebra/answer.h"

#include <algorithm>
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/rng.h"
#include "puzzles/zebra/zebra.h"

namespace foundry::puzzles::zebra {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const Family& ZB() { return TheFamily(); }

// Three houses: red first, green just left of blue, the cat with green, the
// fish in the first house. Only answer: red green blue / fish cat dog.
json Small() {
  return {{"houses", 3},
          {"categories",
           {{{"name", "color"}, {"items", {"red", "green", "blue"}}},
            {{"name", "pet"}, {"items", {"dog", "cat", "fish"}}}}},
          {"clues",
           {{{"type", "position"}, {"a", {0, 0}}, {"house", 0}},
            {{"type", "immediately_left_of"}, {"a", {0, 1}}, {"b", {0, 2}}},
            {{"type", "same"}, {"a", {1, 1}}, {"b", {0, 1}}},
            {{"type", "position"}, {"a", {1, 2}}, {"house", 0}}}}};
}
const json kSmallSolution = {{"houses", {{0, 1, 2}, {2, 1, 0}}}};

Result<bool> Check(const std::string& text) {
  return ZB().CheckAnswer(Small(), kSmallSolution, text);
}

std::string Error(const std::string& text) {
  return testing::InvalidAnswerMessage(Check(text), text);
}

TEST(ZebraAnswerTest, FormatsOneEntryPerCategoryInHouseOrder) {
  EXPECT_EQ(ZB().FormatAnswer(Small(), kSmallSolution),
            "color: red, green, blue; pet: fish, cat, dog");
  EXPECT_EQ(ZB().FormatAnswer(Small(), json{{"houses", {{0, 1, 2}}}}), "");
}

TEST(ZebraAnswerTest, AcceptsAnyOrderCaseAndSpacing) {
  for (const char* text : {"color: red, green, blue; pet: fish, cat, dog",
                           "pet: fish, cat, dog\ncolor: red, green, blue\n",
                           " COLOR : Red,Green , Blue ; pet:FISH,cat,  dog;"}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(ZebraAnswerTest, JudgesByTheClues) {
  for (const char* text : {"color: red, green, blue; pet: cat, fish, dog",
                           "color: green, blue, red; pet: fish, cat, dog"}) {
    testing::ExpectJudged(Check(text), text, false);
  }
}

TEST(ZebraAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error(" ; \n"), HasSubstr("empty"));
  EXPECT_THAT(Error("color red green blue"), HasSubstr("has no ':'"));
  EXPECT_THAT(Error("colour: red, green, blue; pet: fish, cat, dog"),
              HasSubstr("there is no category 'colour' (the categories: color, pet)"));
  EXPECT_THAT(Error("color: red, green, blue; color: red, green, blue"),
              HasSubstr("'color' is given twice"));
  EXPECT_THAT(Error("color: red, green, blue"), HasSubstr("category 'pet' is missing"));
  EXPECT_THAT(Error("color: red, green; pet: fish, cat, dog"),
              HasSubstr("lists 2 items, one per house is 3"));
  EXPECT_THAT(Error("color: red, pink, blue; pet: fish, cat, dog"),
              HasSubstr("'pink' is not an item of color (its items: red, green, blue)"));
  EXPECT_THAT(Error("color: red, red, blue; pet: fish, cat, dog"),
              HasSubstr("'red' is in two houses"));
  EXPECT_THAT(Error("?"), HasSubstr("e.g. color: red, green, blue; ..."));
}

TEST(ZebraAnswerTest, AnExactNameWinsOverOneThatDiffersInCase) {
  json p = Small();
  p["categories"][0]["items"] = {"Big", "big", "small"};
  p["categories"][0]["name"] = "size";
  p["clues"] = {{{"type", "position"}, {"a", {0, 0}}, {"house", 0}}};  // Big in house 1
  const json s = {{"houses", {{0, 1, 2}, {0, 1, 2}}}};
  EXPECT_TRUE(*ZB().CheckAnswer(p, s, "size: Big, big, small; pet: dog, cat, fish"));
  EXPECT_FALSE(*ZB().CheckAnswer(p, s, "size: big, Big, small; pet: dog, cat, fish"));
  EXPECT_TRUE(*ZB().CheckAnswer(p, s, "size: BIG, big, small; pet: dog, cat, fish"));
}

// Found by fuzz_family: an imported puzzle with an item "red, blue" verified,
// yet its formatted answer could not be read back, and its canonical bytes
// could equal another puzzle's. Verify refuses names a player cannot type.
TEST(ZebraAnswerTest, VerifyRefusesNamesThatCannotBeTypedBack) {
  ASSERT_TRUE(ZB().Verify(Small(), kSmallSolution).ok());
  for (const char* name :
       {"", " red", "red ", "red, blue", "red;blue", "red:blue", "red\nblue", "red\tblue"}) {
    json item = Small();
    item["categories"][0]["items"][0] = name;
    EXPECT_EQ(ZB().Verify(item, kSmallSolution).status().code(), Status::Code::kInvalidArgument)
        << "item '" << name << "'";
    json category = Small();
    category["categories"][1]["name"] = name;
    EXPECT_EQ(ZB().Verify(category, kSmallSolution).status().code(), Status::Code::kInvalidArgument)
        << "category '" << name << "'";
  }
  json twice = Small();
  twice["categories"][1]["name"] = "color";
  EXPECT_EQ(ZB().Verify(twice, kSmallSolution).status().code(), Status::Code::kInvalidArgument);
}

TEST(ZebraAnswerTest, GeneratedPuzzlesTakeTheirFormattedAnswerAndNoSwap) {
  const Params params = *ZB().MakeParams(std::map<std::string, std::string>{});
  testing::ExpectGeneratedTakeTheirAnswer(
      ZB(), params, 4, 21, 200, [](const Accepted& a, const std::string&) {
        // Two houses of the first category swapped.
        json swapped = a.solution;
        std::swap(swapped["houses"][0][0], swapped["houses"][0][1]);
        const std::string wrong = ZB().FormatAnswer(a.puzzle, swapped);
        EXPECT_FALSE(*ZB().CheckAnswer(a.puzzle, a.solution, wrong)) << wrong;
        EXPECT_THAT(ZB().AnswerPrompt(a.puzzle), HasSubstr("from house 1 to 5"));
      });
}

TEST(ZebraSvgTest, TheTableIsFilledOnlyWithTheSolution) {
  const std::string bare = ZB().RenderSvg(Small(), nullptr);
  const std::string solved = ZB().RenderSvg(Small(), &kSmallSolution);
  const auto blue = [](const std::string& svg) {
    size_t n = 0;
    for (size_t at = svg.find("fill=\"#1565c0\""); at != std::string::npos;
         at = svg.find("fill=\"#1565c0\"", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(blue(bare), 0u);
  EXPECT_EQ(blue(solved), 6u);  // 2 categories x 3 houses
  EXPECT_THAT(bare, HasSubstr("The person in the red house lives in the first house."));
  EXPECT_EQ(solved.substr(solved.size() - 6), "</svg>");
}

TEST(ZebraSvgTest, NamesAreEscaped) {
  json p = Small();
  p["categories"][0]["name"] = "a<b";
  p["categories"][0]["items"] = {"x&y", "q\"r", "s>t"};
  const std::string svg = ZB().RenderSvg(p, &kSmallSolution);
  EXPECT_THAT(svg, HasSubstr("a&lt;b"));
  EXPECT_THAT(svg, HasSubstr("x&amp;y"));
  EXPECT_THAT(svg, HasSubstr("q&quot;r"));
  EXPECT_THAT(svg, HasSubstr("s&gt;t"));
  EXPECT_THAT(svg, Not(HasSubstr("x&y")));
  EXPECT_THAT(svg, Not(HasSubstr("a<b")));
}

}  // namespace
}  // namespace foundry::puzzles::zebra
