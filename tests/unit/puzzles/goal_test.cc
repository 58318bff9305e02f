// The generic goal: parsing of the reserved keys, and Family::Generate()
// holding every family to it.
#include <map>
#include <string>
#include <variant>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/family.h"
#include "puzzles/levels.h"
#include "puzzles/registry.h"

namespace foundry::puzzles {
namespace {

using ::testing::HasSubstr;
using Raw = std::map<std::string, std::string>;

TEST(GoalTest, ReservedKeysAreTakenOutAndParsed) {
  Raw raw = {{"level", "hard"}, {"min_score", "0.6"}, {"max_score", "0.7"}, {"digits", "4"}};
  auto g = TakeGoal(raw);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->level, 2);
  EXPECT_DOUBLE_EQ(g->min_score, 0.6);
  EXPECT_DOUBLE_EQ(g->max_score, 0.7);
  EXPECT_EQ(raw, (Raw{{"digits", "4"}}));  // the family's own key stays
  EXPECT_TRUE(g->Admits("hard", 0.65));
  EXPECT_FALSE(g->Admits("expert", 0.65));
  EXPECT_FALSE(g->Admits("hard", 0.71));
  EXPECT_EQ(g->Describe(), "level hard, score 0.6..0.7");
}

TEST(GoalTest, AnyIsTheDefault) {
  Raw raw = {{"level", "any"}};
  auto g = TakeGoal(raw);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->Any());
  nlohmann::json j = nlohmann::json::object();
  PutGoal(*g, j);
  EXPECT_EQ(j, nlohmann::json::object());  // nothing at its default is written
}

TEST(GoalTest, BadValuesNameTheKeyAndWhatIsAllowed) {
  for (const auto& [raw, expected] : std::map<Raw, std::string>{
           {{{"level", "insane"}}, "level must be any|easy|medium|hard|expert, got 'insane'"},
           {{{"min_score", "1.5"}}, "min_score must be a number in 0..1"},
           {{{"max_score", "x"}}, "max_score must be a number in 0..1"},
           {{{"max_score", "nan"}}, "max_score must be a number in 0..1"},
           {{{"min_score", "0.8"}, {"max_score", "0.2"}}, "min_score 0.8 is above max_score 0.2"},
           {{{"level", "easy"}, {"min_score", "0.9"}},
            "level easy has scores 0..0.25, none of them in min_score 0.9..max_score 1"},
           {{{"level", "expert"}, {"max_score", "0.7"}}, "no puzzle could meet both"},
           {{{"level", "medium"}, {"min_score", "0.51"}}, "level medium has scores 0.25..0.5"},
       }) {
    Raw copy = raw;
    auto g = TakeGoal(copy);
    ASSERT_FALSE(g.ok()) << expected;
    EXPECT_THAT(g.status().message(), HasSubstr(expected));
  }
}

// A level and a score range that share only an end still meet (a score
// rounded to three places may touch the next level's floor); a goal read
// back from a stored campaign is never refused for missing its level.
TEST(GoalTest, ALevelAndARangeThatTouchAreKeptAndStoredGoalsReadBack) {
  for (const Raw& raw : {Raw{{"level", "easy"}, {"min_score", "0.25"}},
                         Raw{{"level", "expert"}, {"max_score", "0.75"}},
                         Raw{{"level", "hard"}, {"min_score", "0.1"}, {"max_score", "0.6"}}}) {
    Raw copy = raw;
    EXPECT_TRUE(TakeGoal(copy).ok()) << raw.begin()->second;
  }
  nlohmann::json stored = {{"level", "easy"}, {"min_score", 0.9}};
  auto g = TakeGoal(stored);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->level, 0);
}

TEST(GoalTest, JsonRoundTripsThroughParams) {
  auto family = FindFamily("secret-number");
  ASSERT_TRUE(family.ok());
  auto p = (*family)->MakeParams(Raw{{"level", "medium"}, {"max_score", "0.45"}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->json().at("level"), "medium");
  EXPECT_EQ(p->json().at("max_score"), 0.45);
  EXPECT_FALSE(p->json().contains("min_score"));
  auto again = (*family)->MakeParams(p->json());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->json(), p->json());
  EXPECT_EQ(again->goal().level, 1);

  auto bad = (*family)->MakeParams(nlohmann::json{{"level", 3}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("level must be"));
}

// Every family reaches every level at its default parameters within the
// candidates a campaign of that level draws first, and what Generate()
// accepts has the level asked for, with Verify recomputing the same grade
// (level, score and details: the coordinator compares all three).
TEST(GoalTest, EveryFamilyReachesEveryLevelAndVerifyAgrees) {
  constexpr int kWanted = 3;
  constexpr uint64_t kCandidates = 400;
  for (const Family* family : AllFamilies()) {
    for (const std::string_view& level : kLevels) {
      auto params = family->MakeParams(Raw{{"level", std::string(level)}});
      ASSERT_TRUE(params.ok()) << family->name() << " " << params.status().ToString();
      int found = 0;
      for (uint64_t i = 0; i < kCandidates && found < kWanted; ++i) {
        Rng rng = CandidateRng(7, i);
        Candidate c = family->Generate(rng, *params);
        const auto* a = std::get_if<Accepted>(&c);
        if (a == nullptr) continue;
        ++found;
        EXPECT_EQ(a->difficulty.level, level) << family->name();
        // The level's quarter of the score range (levels.h), ends included.
        const ScoreRange range = LevelScores(static_cast<size_t>(&level - kLevels));
        EXPECT_GE(a->difficulty.score, range.lo) << family->name() << " " << level;
        EXPECT_LE(a->difficulty.score, range.hi) << family->name() << " " << level;
        auto verified = family->Verify(a->puzzle, a->solution);
        ASSERT_TRUE(verified.ok()) << family->name() << " " << verified.status().ToString();
        EXPECT_EQ(verified->level, a->difficulty.level) << family->name();
        EXPECT_EQ(verified->score, a->difficulty.score) << family->name();
        EXPECT_EQ(verified->details, a->difficulty.details) << family->name();
      }
      EXPECT_EQ(found, kWanted) << family->name() << " " << level << " within " << kCandidates
                                << " candidates at defaults";
    }
  }
}

// A family that does not aim at levels (bulls-cows meets its targets by
// rejection alone) has the off-level candidates of its plain stream rejected
// as "level", and keeps the on-level ones unchanged.
TEST(GoalTest, OffLevelCandidatesAreRejectedAsLevel) {
  auto family = FindFamily("bulls-cows");
  ASSERT_TRUE(family.ok());
  auto any = (*family)->MakeParams(Raw{});
  auto easy = (*family)->MakeParams(Raw{{"level", "easy"}});
  ASSERT_TRUE(any.ok() && easy.ok());
  int kept = 0, dropped = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    Rng a = CandidateRng(3, i), b = CandidateRng(3, i);
    Candidate plain = (*family)->Generate(a, *any);
    Candidate aimed = (*family)->Generate(b, *easy);
    const auto* p = std::get_if<Accepted>(&plain);
    if (p == nullptr) continue;
    if (p->difficulty.level == "easy") {
      ASSERT_TRUE(std::holds_alternative<Accepted>(aimed));
      EXPECT_EQ(std::get<Accepted>(aimed).puzzle, p->puzzle);
      ++kept;
    } else {
      ASSERT_TRUE(std::holds_alternative<Rejected>(aimed));
      EXPECT_EQ(std::get<Rejected>(aimed).reason, "level");
      ++dropped;
    }
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(dropped, 0);
}

}  // namespace
}  // namespace foundry::puzzles
