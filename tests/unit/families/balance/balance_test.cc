// Unit tests of the balance family: the 12-coin / 3-weighing classic, the
// count-state solver against the closed-form bounds, trees checked by the
// test's own walk, deduction records brute-force checked, strict JSON.
#include "puzzles/balance/balance.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/balance/coins.h"
#include "puzzles/balance/count_solver.h"
#include "puzzles/balance/generator.h"
#include "puzzles/rng.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::balance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& BL() { return TheFamily(); }

int64_t Pow(int64_t base, int exp) {
  int64_t r = 1;
  while (exp-- > 0) r *= base;
  return r;
}

Params MakeParams(std::map<std::string, std::string> raw = {}) {
  return testing::ParamsOrFail(BL(), raw);
}

Candidate Gen(const Params& params, uint64_t seed, uint64_t index) {
  return testing::GenerateAt(BL(), params, seed, index);
}

// The test's own walk: follows the tree for coin `coin` (heavier or not) and
// returns the leaf reached and the weighings made.
std::pair<json, int> Walk(const json& node, int coin, bool heavier) {
  int depth = 0;
  const json* at = &node;
  while (!at->contains("coin")) {
    const auto on = [&](const char* side) {
      for (const auto& c : (*at)[side]) {
        if (c == coin) return true;
      }
      return false;
    };
    EXPECT_EQ((*at)["left"].size(), (*at)["right"].size());
    std::string branch = "balanced";
    if (on("left")) branch = heavier ? "left_heavy" : "right_heavy";
    if (on("right")) branch = heavier ? "right_heavy" : "left_heavy";
    ++depth;
    if (!at->contains(branch)) return {json(), depth};
    at = &(*at)[branch];
  }
  return {*at, depth};
}

// Every hypothesis of the variant ends at its own leaf within k weighings.
void ExpectTreeSolves(const json& tree, int coins, int k, Variant v) {
  for (int c = 1; c <= coins; ++c) {
    for (bool heavier : {true, false}) {
      if (v == Variant::kHeavier && !heavier) continue;
      const auto [leaf, depth] = Walk(tree, c, heavier);
      EXPECT_EQ(leaf, (json{{"coin", c}, {"heavier", heavier}})) << "coin " << c << heavier;
      EXPECT_LE(depth, k);
    }
  }
}

// ---- the classic ----

TEST(BalanceTest, TwelveCoinsThreeWeighingsUnknownIsTight) {
  CountSolver solver;
  const CountState start = StartState(Variant::kUnknown, 12);
  EXPECT_TRUE(solver.Solvable(start, 3));
  EXPECT_FALSE(solver.Solvable(start, 2));
  EXPECT_FALSE(solver.Solvable(StartState(Variant::kUnknown, 13), 3));
  EXPECT_TRUE(solver.Solvable(StartState(Variant::kReference, 13), 3));
  const json tree = BuildTree(solver, Variant::kUnknown, 12, 3);
  ExpectTreeSolves(tree, 12, 3, Variant::kUnknown);
  EXPECT_EQ(tree["left"].size(), 4u) << "the classic first weighing is 4 against 4";

  const json puzzle = {
      {"mode", "strategy"}, {"coins", 12}, {"weighings", 3}, {"variant", "unknown"}};
  auto d = BL().Verify(puzzle, {{"tree", tree}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->details["weighings"], 3);
  EXPECT_EQ(d->details["fill"], 1.0);
}

TEST(BalanceTest, SolverMatchesTheBounds) {
  CountSolver solver;
  for (Variant v : {Variant::kUnknown, Variant::kReference, Variant::kHeavier}) {
    for (int k = 1; k <= 3; ++k) {
      const int64_t most = MaxCoins(v, k);
      SCOPED_TRACE(std::string(VariantName(v)) + " k=" + std::to_string(k));
      if (v == Variant::kUnknown) {
        EXPECT_EQ(most, (Pow(3, k) - 3) / 2);
      } else if (v == Variant::kReference) {
        EXPECT_EQ(most, (Pow(3, k) - 1) / 2);
      } else {
        EXPECT_EQ(most, Pow(3, k));
      }
      if (most >= (v == Variant::kUnknown ? 3 : 1)) {
        EXPECT_TRUE(solver.Solvable(StartState(v, static_cast<int>(most)), k));
      }
      EXPECT_FALSE(solver.Solvable(StartState(v, static_cast<int>(most) + 1), k));
    }
    for (int n = 1; n <= 40; ++n) {
      EXPECT_EQ(SearchMinWeighings(solver, v, n), MinWeighings(v, n))
          << VariantName(v) << " n=" << n;
    }
  }
  // Unknown with 1 or 2 coins: no strategy at all.
  EXPECT_EQ(SearchMinWeighings(solver, Variant::kUnknown, 2), -1);
  EXPECT_EQ(MinWeighings(Variant::kUnknown, 2), -1);
}

TEST(BalanceTest, FourWeighingsBoundsAndTrees) {
  CountSolver solver;
  for (Variant v : {Variant::kUnknown, Variant::kReference, Variant::kHeavier}) {
    const int most = static_cast<int>(MaxCoins(v, 4));
    ASSERT_TRUE(solver.Solvable(StartState(v, most), 4)) << VariantName(v);
    EXPECT_FALSE(solver.Solvable(StartState(v, most + 1), 4)) << VariantName(v);
    ExpectTreeSolves(BuildTree(solver, v, most, 4), most, 4, v);
  }
}

TEST(BalanceTest, FiveWeighingsAtTheBounds) {
  CountSolver solver;
  for (Variant v : {Variant::kUnknown, Variant::kReference}) {
    const int most = static_cast<int>(MaxCoins(v, 5));
    ASSERT_TRUE(solver.Solvable(StartState(v, most), 5)) << VariantName(v);
    EXPECT_FALSE(solver.Solvable(StartState(v, most + 1), 5)) << VariantName(v);
    ExpectTreeSolves(BuildTree(solver, v, most, 5), most, 5, v);
  }
}

// ---- strategy generation ----

TEST(BalanceTest, StrategyPuzzlesAreTightAndVerify) {
  for (const char* variant : {"unknown", "heavier", "reference"}) {
    const Params params = MakeParams(
        {{"mode", "strategy"}, {"variant", variant}, {"coins", "40"}, {"weighings", "3"}});
    std::set<int> seen;
    for (int i = 0; i < 600; ++i) {
      Candidate c = Gen(params, 5, i);
      if (auto* r = std::get_if<Rejected>(&c)) {
        EXPECT_THAT(r->reason, ::testing::AnyOf("needs_more_weighings", "fewer_weighings_suffice",
                                                "no_strategy_exists"));
        continue;
      }
      const Accepted& a = std::get<Accepted>(c);
      const int n = a.puzzle["coins"].get<int>();
      seen.insert(n);
      const Variant v = *ParseVariant(variant);
      EXPECT_EQ(MinWeighings(v, n), 3);
      ExpectTreeSolves(a.solution["tree"], n, 3, v);
      auto d = BL().Verify(a.puzzle, a.solution);
      ASSERT_TRUE(d.ok()) << d.status().ToString();
      EXPECT_EQ(d->ToJson(), a.difficulty.ToJson());
    }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), DistinctPuzzles(params)) << variant;
  }
}

TEST(BalanceTest, DistinctPuzzleCounts) {
  EXPECT_EQ(DistinctPuzzles(MakeParams({{"mode", "strategy"}})), 9);  // 4..12
  EXPECT_EQ(DistinctPuzzles(MakeParams({{"mode", "strategy"}, {"coins", "120"}})), 9);
  EXPECT_EQ(DistinctPuzzles(MakeParams({{"mode", "strategy"}, {"variant", "heavier"}})),
            3);  // 10..12
  EXPECT_EQ(
      DistinctPuzzles(MakeParams({{"mode", "strategy"}, {"variant", "heavier"}, {"coins", "40"}})),
      18);  // 10..27
  EXPECT_EQ(DistinctPuzzles(MakeParams()), -1);
}

TEST(BalanceTest, VerifyRefusesBadTrees) {
  CountSolver solver;
  const json puzzle = {
      {"mode", "strategy"}, {"coins", 12}, {"weighings", 3}, {"variant", "unknown"}};
  const json good = BuildTree(solver, Variant::kUnknown, 12, 3);
  // Another puzzle's tree.
  auto d =
      BL().Verify({{"mode", "strategy"}, {"coins", 11}, {"weighings", 3}, {"variant", "unknown"}},
                  {{"tree", good}});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kFailedPrecondition);
  // A wrong leaf.
  json bad = good;
  json* leaf = &bad;
  while (!leaf->contains("coin"))
    leaf = &(*leaf)[leaf->contains("left_heavy") ? "left_heavy" : "balanced"];
  (*leaf)["heavier"] = !(*leaf)["heavier"].get<bool>();
  d = BL().Verify(puzzle, {{"tree", bad}});
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("names coin"));
  // Unequal pans, coin 0 without a reference coin.
  bad = good;
  bad["left"].push_back(9);
  d = BL().Verify(puzzle, {{"tree", bad}});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kInvalidArgument);
  bad = good;
  bad["left"][0] = 0;
  d = BL().Verify(puzzle, {{"tree", bad}});
  EXPECT_EQ(d.status().code(), Status::Code::kInvalidArgument);
  // Not tight: 4 coins in 3 weighings is fine, 3 coins is not.
  d = BL().Verify({{"mode", "strategy"}, {"coins", 3}, {"weighings", 3}, {"variant", "unknown"}},
                  {{"tree", BuildTree(solver, Variant::kUnknown, 3, 2)}});
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("not tight"));
}

// ---- deduction ----

json TestConsistent(const json& puzzle) {
  json out = json::array();
  for (int c = 1; c <= puzzle["coins"].get<int>(); ++c) {
    for (bool heavier : {true, false}) {
      bool ok = true;
      for (const auto& w : puzzle["weighings"]) {
        json tree = {{"left", w["left"]}, {"right", w["right"]}};
        tree[w["result"].get<std::string>()] = {{"coin", 0}, {"heavier", true}};
        const auto [leaf, depth] = Walk(tree, c, heavier);
        ok = ok && !leaf.is_null();
      }
      if (ok) out.push_back({{"coin", c}, {"heavier", heavier}});
    }
  }
  return out;
}

TEST(BalanceTest, DeductionPuzzlesAreUniqueAndVerify) {
  for (const char* coins : {"12", "3", "40"}) {
    const Params params = MakeParams({{"coins", coins}, {"max_weighings", "8"}});
    int accepted = 0;
    for (int i = 0; i < 200; ++i) {
      Candidate c = Gen(params, 9, i);
      if (auto* r = std::get_if<Rejected>(&c)) {
        EXPECT_THAT(r->reason, ::testing::AnyOf("too_many_weighings", "no_weighing_fits"));
        continue;
      }
      ++accepted;
      const Accepted& a = std::get<Accepted>(c);
      SCOPED_TRACE(a.puzzle.dump());
      EXPECT_EQ(TestConsistent(a.puzzle), json::array({a.solution}));
      EXPECT_LE(a.puzzle["weighings"].size(), 8u);
      auto d = BL().Verify(a.puzzle, a.solution);
      ASSERT_TRUE(d.ok()) << d.status().ToString();
      EXPECT_EQ(d->ToJson(), a.difficulty.ToJson());
    }
    EXPECT_GT(accepted, 50) << coins;
  }
}

TEST(BalanceTest, DeductionKnownAnswerAndCanonicalBytes) {
  // The classic: 1234 vs 5678 left heavy; 1 2 5 vs 3 6 9 balanced... coin 4
  // heavier or one of 7 8 lighter; 7 vs 8 balanced: coin 4 heavier.
  const json puzzle = {
      {"mode", "deduction"},
      {"coins", 12},
      {"weighings",
       {{{"left", {1, 2, 3, 4}}, {"right", {5, 6, 7, 8}}, {"result", "left_heavy"}},
        {{"left", {1, 2, 5}}, {"right", {3, 6, 9}}, {"result", "balanced"}},
        {{"left", {7}}, {"right", {8}}, {"result", "balanced"}}}}};
  EXPECT_EQ(TestConsistent(puzzle), json::array({{{"coin", 4}, {"heavier", true}}}));
  auto d = BL().Verify(puzzle, {{"coin", 4}, {"heavier", true}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->details["needed"], 3);
  auto wrong = BL().Verify(puzzle, {{"coin", 7}, {"heavier", false}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), Status::Code::kFailedPrecondition);
  // Reordered weighings and mirrored pans are the same puzzle.
  json same = puzzle;
  std::swap(same["weighings"][0], same["weighings"][2]);
  same["weighings"][2] = {
      {"left", {5, 6, 7, 8}}, {"right", {1, 2, 3, 4}}, {"result", "right_heavy"}};
  EXPECT_EQ(BL().CanonicalBytes(same), BL().CanonicalBytes(puzzle));
  EXPECT_EQ(BL().Verify(same, {{"coin", 4}, {"heavier", true}})->ToJson(), d->ToJson());
  EXPECT_THAT(BL().RenderText(puzzle), HasSubstr("1 2 3 4 against 5 6 7 8: the left pan heavier"));
  // Without the last weighing the answer is not unique.
  json two = puzzle;
  two["weighings"].erase(2);
  auto amb = BL().Verify(two, {{"coin", 4}, {"heavier", true}});
  ASSERT_FALSE(amb.ok());
  EXPECT_THAT(amb.status().message(), HasSubstr("not unique"));
}

TEST(BalanceTest, VerifyRejectsMalformedDeductions) {
  const json ok = {{"coin", 1}, {"heavier", true}};
  const auto with = [](json w) {
    return json{{"mode", "deduction"}, {"coins", 12}, {"weighings", {std::move(w)}}};
  };
  const auto expect = [&](const json& puzzle, const json& solution, const std::string& fragment) {
    testing::ExpectVerifyRefuses(BL(), puzzle, solution, fragment);
  };
  expect({{"mode", "guess"}}, ok, "mode");
  expect({{"mode", "deduction"}, {"coins", 2}, {"weighings", json::array()}}, ok, "coins");
  expect({{"mode", "deduction"}, {"coins", 12}, {"weighings", json::array()}, {"x", 1}}, ok, "'x'");
  expect(with({{"left", {1}}, {"right", {2, 3}}, {"result", "balanced"}}), ok, "not equal");
  expect(with({{"left", {1}}, {"right", {1}}, {"result", "balanced"}}), ok, "twice");
  expect(with({{"left", {13}}, {"right", {1}}, {"result", "balanced"}}), ok, "1..12");
  expect(with({{"left", {0}}, {"right", {1}}, {"result", "balanced"}}), ok, "1..12");
  expect(with({{"left", json::array()}, {"right", json::array()}, {"result", "balanced"}}), ok,
         "non-empty");
  expect(with({{"left", {1}}, {"right", {2}}, {"result", "tilted"}}), ok, "result");
  expect(with({{"left", {1}}, {"right", {2}}, {"result", "balanced"}}),
         {{"coin", 13}, {"heavier", true}}, "solution");
  expect({{"mode", "strategy"}, {"coins", 12}, {"weighings", 6}, {"variant", "unknown"}}, ok,
         "weighings");
  expect({{"mode", "strategy"}, {"coins", 12}, {"weighings", 3}, {"variant", "odd"}}, ok,
         "variant");
}

TEST(BalanceTest, ParamsDefaultsAndErrors) {
  EXPECT_EQ(MakeParams().json(), (json{{"coins", 12},
                                       {"max_weighings", 6},
                                       {"mode", "deduction"},
                                       {"variant", "unknown"},
                                       {"weighings", 3}}));
  auto p = BL().MakeParams(std::map<std::string, std::string>{{"coins", "2"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("'coins'"));
  p = BL().MakeParams(std::map<std::string, std::string>{{"variant", "heavier"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("mode=strategy"));
  p = BL().MakeParams(std::map<std::string, std::string>{{"mode", "strategy"}, {"weighings", "6"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("1..5"));
}

TEST(BalanceTest, LevelsAllReachableWithDefaults) {
  const Params params = MakeParams();
  std::map<std::string, int> levels;
  for (int i = 0; i < 2000; ++i) {
    Candidate c = Gen(params, 8, i);
    if (auto* a = std::get_if<Accepted>(&c)) ++levels[a->difficulty.level];
  }
  EXPECT_EQ(levels.size(), 4u);
}

}  // namespace
}  // namespace foundry::puzzles::balance
