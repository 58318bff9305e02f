// Typed answers and the drawing of the alignment family: gap cells as
// c<column>r<row>, any layout that fits and reaches the target is right;
// the errors; the SVG board.
#include "puzzles/alignment/answer.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../answer_test_util.h"
#include "../family_test_util.h"

#include "puzzles/alignment/alignment.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::alignment {
namespace {

using foundry::puzzles::testing::FirstAccepted;

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const Family& AL() { return TheFamily(); }

// Two columns "AC" under guides C, A, C, A: no brick matches (0 points).
// A gap on top of both columns matches rows 1 and 2 fully: 2 x 2 each, 8.
// A gap at row 1 of both matches row 2 only: 4. The target is 4, so both
// layouts are right; one gap alone scores 2.
json Small(int max_gaps = 0) {
  json p = {{"height", 4},       {"columns", {"AC", "AC"}}, {"guides", {"C", "A", "C", "A"}},
            {"row_bonus", 2},    {"base_score", 0},         {"target_score", 4},
            {"greedy_score", 8}, {"best_score", 8}};
  if (max_gaps > 0) p["max_gaps"] = max_gaps;
  return p;
}
const json kSolution = {{"layout", {"-AC", "-AC"}}, {"score", 8}};

Result<bool> Check(const std::string& text, int max_gaps = 0) {
  return AL().CheckAnswer(Small(max_gaps), kSolution, text);
}

std::string Error(const std::string& text) {
  return testing::InvalidAnswerMessage(Check(text), text);
}

TEST(AlignmentAnswerTest, FormatsTheGapCells) {
  EXPECT_EQ(AL().FormatAnswer(Small(), kSolution), "c0r0 c1r0");
  EXPECT_EQ(AL().FormatAnswer(Small(), json{{"layout", {"AC", "AC"}}, {"score", 0}}), "none");
  EXPECT_EQ(AL().FormatAnswer(Small(), json{{"layout", {"AC"}}, {"score", 0}}), "");
}

TEST(AlignmentAnswerTest, AcceptsAnyOrderCaseAndSpacing) {
  for (const char* text :
       {"c0r0 c1r0", "c1r0 c0r0", "C0R0,C1R0", " c0 r0 , c1:r0 ", "c0r0;c1r0\n"}) {
    testing::ExpectJudged(Check(text), text, true);
  }
}

TEST(AlignmentAnswerTest, AnyLayoutThatReachesTheTargetIsRight) {
  EXPECT_TRUE(*Check("c0r1 c1r1"));  // 4 points, not the stored layout
  EXPECT_FALSE(*Check("c0r0"));      // 2 points
  EXPECT_FALSE(*Check("none"));      // 0 points
  EXPECT_FALSE(*Check("c0r1"));      // 1 point
}

TEST(AlignmentAnswerTest, GapsThatDoNotFitAreWrongNotMalformed) {
  EXPECT_FALSE(*Check("c0r2 c1r0"));            // after column 0's last brick
  EXPECT_FALSE(*Check("c0r0 c0r1 c0r2 c1r0"));  // 5 cells in a column of height 4
  EXPECT_TRUE(*Check("c0r0 c1r0", 2));
  EXPECT_FALSE(*Check("c0r0 c1r0", 1));  // over max_gaps
}

TEST(AlignmentAnswerTest, MalformedAnswersNameTheProblemAndTheForm) {
  EXPECT_THAT(Error(""), HasSubstr("empty"));
  EXPECT_THAT(Error("c2r0"), HasSubstr("there is no column 2 (columns 0..1)"));
  EXPECT_THAT(Error("c0r4"), HasSubstr("there is no row 4 (rows 0..3)"));
  EXPECT_THAT(Error("c0r0 c0r0"), HasSubstr("c0r0 is given twice"));
  EXPECT_THAT(Error("r0c0"), HasSubstr("'r0c0' is not a gap cell"));
  EXPECT_THAT(Error("c0"), HasSubstr("is not a gap cell"));
  EXPECT_THAT(Error("c0r0 x"), HasSubstr("'x' is not a gap cell"));
  EXPECT_THAT(
      Error("nothing"),
      HasSubstr("type the gap cells as c<column>r<row> (0-based), e.g. c0r2 c3r4, or none"));
}

// A player's layout has points: ScoreAnswer gives them beside the puzzle's
// target, greedy and best scores (what the store keeps the best of).
TEST(AlignmentAnswerTest, ScoresTheLayoutBesideThePuzzlesFigures) {
  const auto score = [](const std::string& text, int max_gaps = 0) {
    return AL().ScoreAnswer(Small(max_gaps), kSolution, text);
  };
  for (const auto& [text, points] : std::vector<std::pair<std::string, double>>{
           {"c0r0 c1r0", 8}, {"c1r1, C0R1", 4}, {"c0r0", 2}, {"c0r1", 1}, {"none", 0}}) {
    auto s = score(text);
    ASSERT_TRUE(s.ok()) << text << ": " << s.status().ToString();
    ASSERT_TRUE(s->has_value()) << text;
    EXPECT_EQ((*s)->score, points) << text;
    EXPECT_EQ((*s)->target, 4);
    EXPECT_EQ((*s)->greedy, 8);
    EXPECT_EQ((*s)->best, 8);
    EXPECT_EQ(*Check(text), points >= 4) << "solved exactly when the score reaches the target";
  }
  // Gaps that do not fit make no layout: no score, and a wrong answer.
  for (const auto& [text, max_gaps] : std::vector<std::pair<std::string, int>>{
           {"c0r2 c1r0", 0}, {"c0r0 c0r1 c0r2 c1r0", 0}, {"c0r0 c1r0", 1}}) {
    auto s = score(text, max_gaps);
    ASSERT_TRUE(s.ok()) << text;
    EXPECT_FALSE(s->has_value()) << text;
  }
  // Text that is not cells is refused as CheckAnswer refuses it.
  EXPECT_EQ(score("c2r0").status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(score("").status().message(), HasSubstr("empty"));
}

TEST(AlignmentAnswerTest, GeneratedPuzzlesScoreTheirStoredLayout) {
  const Params params = *AL().MakeParams(std::map<std::string, std::string>{});
  for (const Accepted& a : FirstAccepted(AL(), params, 5, 7, 2000)) {
    auto s = AL().ScoreAnswer(a.puzzle, a.solution, AL().FormatAnswer(a.puzzle, a.solution));
    ASSERT_TRUE(s.ok() && s->has_value());
    EXPECT_EQ((*s)->score, a.solution["score"].get<int>());
    EXPECT_EQ((*s)->best, a.puzzle["best_score"].get<int>());
    EXPECT_EQ((*s)->greedy, a.puzzle["greedy_score"].get<int>());
    EXPECT_GE((*s)->score, (*s)->target);
  }
}

TEST(AlignmentAnswerTest, GeneratedPuzzlesTakeTheirFormattedAnswer) {
  const Params params = *AL().MakeParams(std::map<std::string, std::string>{});
  testing::ExpectGeneratedTakeTheirAnswer(
      AL(), params, 5, 4, 2000, [](const Accepted& a, const std::string&) {
        EXPECT_FALSE(
            *AL().CheckAnswer(a.puzzle, a.solution, "none"));  // the base is below the target
        EXPECT_THAT(AL().AnswerPrompt(a.puzzle),
                    HasSubstr(" to reach " + std::to_string(a.puzzle["target_score"].get<int>()) +
                              " points"));
      });
}

TEST(AlignmentSvgTest, BricksGuidesAndGapsOnlyWithTheSolution) {
  const std::string bare = AL().RenderSvg(Small(), nullptr);
  const std::string solved = AL().RenderSvg(Small(), &kSolution);
  for (const std::string& svg : {bare, solved}) {
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_THAT(svg, HasSubstr("fill=\"#43a047\""));  // A green
    EXPECT_THAT(svg, HasSubstr("fill=\"#1e88e5\""));  // C blue
    EXPECT_THAT(svg, HasSubstr(">guide</text>"));
  }
  EXPECT_THAT(bare, Not(HasSubstr("stroke-dasharray")));
  EXPECT_THAT(solved, HasSubstr("stroke-dasharray"));  // the gaps
  EXPECT_THAT(solved, HasSubstr("This layout: 2 gaps, 8 points."));
  const json misfit = {{"layout", {"A-C-", "AC"}}, {"score", 0}};
  EXPECT_THAT(AL().RenderSvg(Small(), &misfit), HasSubstr("does not fit"));
}

}  // namespace
}  // namespace foundry::puzzles::alignment
