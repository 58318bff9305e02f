// Zebra levels: the four-level grade (solver.h Grade) against an
// independent re-derivation, the capped grade used when generating toward a
// level, and the generic goal at every level.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/zebra/codec.h"
#include "puzzles/zebra/generator.h"
#include "puzzles/zebra/model.h"
#include "puzzles/zebra/solver.h"
#include "puzzles/zebra/zebra.h"
#include "tests/unit/families/family_test_util.h"
#include "tests/unit/families/zebra/zebra_test_util.h"

namespace foundry::puzzles::zebra {
namespace {

using json = nlohmann::json;

bool OneRefutationSolves(const Solver& s, const Domains& d, int n) {
  for (int i = 0; i < n; ++i) {
    for (int house = 0; house < 8; ++house) {
      const uint8_t bit = static_cast<uint8_t>(1u << house);
      if (!(d[i] & bit) || d[i] == bit) continue;
      Domains trial = d;
      trial[i] = bit;
      if (s.Propagate(trial)) continue;
      Domains dropped = d;
      dropped[i] &= static_cast<uint8_t>(~bit);
      if (s.Propagate(dropped) && s.Solved(dropped)) return true;
    }
  }
  return false;
}

// The level says what the solver had to do, re-derived here from the
// solver's steps; every level occurs at the default size.
TEST(ZebraGenerate, LevelsMatchTheSolversWork) {
  std::map<std::string, int> seen;
  for (const Accepted& a : Sample(MakeParams(), 300, 17)) {
    const ParsedPuzzle p = Parse(a.puzzle);
    const int n = p.houses * static_cast<int>(p.categories.size());
    const Solver s(p.houses, static_cast<int>(p.categories.size()), p.clues);
    Domains d = s.Start();
    int rounds = 0;
    ASSERT_TRUE(s.Rounds(d, &rounds));
    Domains g = s.Start();
    ASSERT_TRUE(s.Propagate(g));
    ASSERT_EQ(d, g) << "Rounds() and Propagate() reach different fixpoints";
    std::string want;
    if (s.Solved(d)) {
      want = rounds <= kEasyRounds ? "easy" : "medium";
    } else {
      want = OneRefutationSolves(s, d, n) ? "hard" : "expert";
    }
    EXPECT_EQ(a.difficulty.level, want) << a.puzzle.dump();
    EXPECT_EQ(a.difficulty.details["propagation_rounds"], rounds);
    const int refuted = a.difficulty.details["refuted_trials"];
    if (want == "hard") {
      EXPECT_EQ(refuted, 1);
    } else if (want == "expert") {
      EXPECT_TRUE(refuted >= 2 || a.difficulty.details["search_nodes"] > 0);
    }
    // The score lies in its level's quarter (the store's table).
    EXPECT_EQ(LevelForScore(a.difficulty.score, kQuartileFloors), a.difficulty.level)
        << a.difficulty.score;
    ++seen[want];
  }
  for (std::string_view level : kLevels) EXPECT_GE(seen[std::string(level)], 15) << level;
}

// Propagation in rounds ends where Propagate() does, on any clue set: with
// no solution, one, or many.
TEST(ZebraSolvers, RoundsReachPropagatesFixpoint) {
  Rng rng(5);
  for (int t = 0; t < 2000; ++t) {
    const int h = 3 + static_cast<int>(rng.Below(4)), k = 2 + static_cast<int>(rng.Below(4));
    std::vector<Clue> clues;
    const int count = 3 + static_cast<int>(rng.Below(12));
    for (int i = 0; i < count; ++i) {
      Clue c;
      c.type = static_cast<ClueType>(rng.Below(kClueTypeCount));
      c.a = static_cast<uint8_t>(rng.Below(h * k));
      do {
        c.b = static_cast<uint8_t>(rng.Below(h * k));
      } while (c.b == c.a ||
               ((c.type == ClueType::kSame || c.type == ClueType::kNotSame) && c.b / h == c.a / h));
      c.house = static_cast<int8_t>(rng.Below(h));
      clues.push_back(c);
    }
    const Solver s(h, k, clues);
    Domains a = s.Start(), b = s.Start();
    int rounds = 0;
    const bool ok = s.Rounds(a, &rounds);
    ASSERT_EQ(ok, s.Propagate(b)) << t;
    if (ok) {
      ASSERT_EQ(a, b) << t;
    }
  }
}

// Asked for a level, the grader may stop early, but what it keeps is the
// full grade.
TEST(ZebraGenerate, CappedGradeIsTheFullGradeOrAbove) {
  int above = 0;
  for (uint64_t i = 0; i < 300; ++i) {
    Rng rng = CandidateRng(31, i);
    Draft draft;
    const char* reason = "";
    ASSERT_TRUE(Build(rng, GenerateOptions{}, &draft, &reason)) << reason;
    const Solver s(5, 5, draft.clues);
    const SolveReport full = s.Grade();
    ASSERT_EQ(full.solutions, 1);
    for (int cap = 0; cap < 4; ++cap) {
      const SolveReport r = s.Grade(cap);
      if (full.level <= cap) {
        EXPECT_EQ(r.level, full.level);
        EXPECT_EQ(r.solutions, 1);
        EXPECT_EQ(r.rounds, full.rounds);
        EXPECT_EQ(r.open, full.open);
        EXPECT_EQ(r.refutations, full.refutations);
        EXPECT_EQ(r.trials, full.trials);
        EXPECT_EQ(r.search_nodes, full.search_nodes);
        EXPECT_EQ(r.solution, full.solution);
      } else {
        EXPECT_EQ(r.level, cap + 1);
        ++above;
      }
    }
  }
  EXPECT_GT(above, 0);
}

// Every level is reachable at the default size, through the generic goal
// key `level` (goal.h), and Verify's grade is the generator's.
TEST(ZebraGenerate, LevelParamFilters) {
  for (std::string_view level : kLevels) {
    const auto sample = Sample(MakeParams({{"level", std::string(level)}}), 5, 21, 200);
    ASSERT_EQ(sample.size(), 5u) << level;
    for (const Accepted& a : sample) {
      EXPECT_EQ(a.difficulty.level, level);
      testing::ExpectVerifyAgrees(ZB(), a);
    }
  }
  // Larger sizes reach every level too.
  const auto expert =
      Sample(MakeParams({{"level", "expert"}, {"houses", "8"}, {"categories", "8"}}), 2, 21, 200);
  ASSERT_EQ(expert.size(), 2u);
  for (const Accepted& a : expert) EXPECT_TRUE(ZB().Verify(a.puzzle, a.solution).ok());
}

}  // namespace
}  // namespace foundry::puzzles::zebra
