// Zebra family tests. Generated puzzles are re-checked by brute force over
// permutations (written here, sharing no code with the family but Holds()'s
// definition, which is re-stated in clue_meaning.h) on small sizes, and by the family's
// independent verifier (verifier.h) on larger ones; minimality is checked
// clue by clue on samples; the classic Einstein puzzle is a known answer.
#include "puzzles/zebra/zebra.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/zebra/codec.h"
#include "puzzles/zebra/generator.h"
#include "puzzles/zebra/model.h"
#include "puzzles/zebra/solver.h"
#include "puzzles/zebra/verifier.h"
#include "tests/unit/families/family_test_util.h"
#include "tests/unit/families/zebra/clue_meaning.h"
#include "tests/unit/families/zebra/zebra_test_util.h"

namespace foundry::puzzles::zebra {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

// ---- brute force, independent of the family ----

// Every assignment of one permutation per category, category by category;
// a clue is checked once all its items' categories are placed. Counts up to
// `limit`; the first solution goes to *first.
struct BruteForce {
  const ParsedPuzzle& p;
  int limit;
  std::vector<int> house;
  std::vector<int>* first = nullptr;
  int count = 0;

  void Run(int cat) {
    const int h = p.houses, k = static_cast<int>(p.categories.size());
    if (cat == k) {
      if (count == 0 && first) *first = house;
      ++count;
      return;
    }
    std::vector<int> perm(h);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      for (int i = 0; i < h; ++i) house[cat * h + i] = perm[i];
      bool ok = true;
      for (const Clue& c : p.clues) {
        const int top = std::max(c.a / h, IsBinary(c.type) ? c.b / h : 0);
        if (top == cat && !RestatedHolds(c, house)) {
          ok = false;
          break;
        }
      }
      if (ok) Run(cat + 1);
      if (count >= limit) return;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
};

int BruteCount(const ParsedPuzzle& p, int limit, std::vector<int>* first = nullptr) {
  BruteForce b{p, limit, std::vector<int>(p.houses * p.categories.size(), -1)};
  b.first = first;
  b.Run(0);
  return b.count;
}

// ---- the classic Einstein puzzle (Life International, 1962) ----

json Item(int c, int i) { return json::array({c, i}); }
json Rel(const char* type, json a, json b) { return {{"type", type}, {"a", a}, {"b", b}}; }

json ClassicPuzzle() {
  // Categories in the theme order: nationality, color, pet, drink, smoke.
  json cats = json::array();
  for (const Category& c : ThemedCategories(5, 5))
    cats.push_back({{"name", c.name}, {"items", c.items}});
  const json clues = {
      Rel("same", Item(0, 0), Item(1, 0)),                      // 2. Englishman in the red house
      Rel("same", Item(0, 1), Item(2, 0)),                      // 3. Spaniard owns the dog
      Rel("same", Item(3, 0), Item(1, 1)),                      // 4. coffee in the green house
      Rel("same", Item(0, 2), Item(3, 1)),                      // 5. Ukrainian drinks tea
      Rel("immediately_left_of", Item(1, 2), Item(1, 1)),       // 6. green just right of ivory
      Rel("same", Item(4, 0), Item(2, 1)),                      // 7. Old Gold smoker owns snails
      Rel("same", Item(4, 1), Item(1, 3)),                      // 8. Kools in the yellow house
      {{"type", "position"}, {"a", Item(3, 2)}, {"house", 2}},  // 9. milk in the middle house
      {{"type", "position"}, {"a", Item(0, 3)}, {"house", 0}},  // 10. Norwegian in the first house
      Rel("next_to", Item(4, 2), Item(2, 2)),                   // 11. Chesterfield next to the fox
      Rel("next_to", Item(4, 1), Item(2, 3)),                   // 12. Kools next to the horse
      Rel("same", Item(4, 3), Item(3, 3)),     // 13. Lucky Strike drinks orange juice
      Rel("same", Item(0, 4), Item(4, 4)),     // 14. Japanese smokes Parliament
      Rel("next_to", Item(0, 3), Item(1, 4)),  // 15. Norwegian next to the blue house
  };
  return {{"houses", 5}, {"categories", cats}, {"clues", clues}};
}

// houses[category][house] = item: yellow/Norwegian/water/Kools/fox, ...
json ClassicAnswer() {
  return {{"houses",
           {{3, 2, 0, 1, 4}, {3, 4, 0, 2, 1}, {2, 3, 1, 0, 4}, {4, 1, 2, 3, 0}, {1, 2, 0, 3, 4}}}};
}

TEST(ZebraClassic, KnownAnswerByEveryPath) {
  const ParsedPuzzle p = Parse(ClassicPuzzle());
  ASSERT_EQ(p.clues.size(), 14u);  // + "there are five houses" = the fifteen clues
  auto answer = ParseSolution(p, ClassicAnswer());
  ASSERT_TRUE(answer.ok());
  // The generator's solver.
  const SolveReport r = Solver(5, 5, p.clues).Grade();
  ASSERT_EQ(r.solutions, 1);
  for (int i = 0; i < 25; ++i) EXPECT_EQ(r.solution[i], (*answer)[i]) << i;
  // The verifier's solver.
  Placement mac{};
  ASSERT_EQ(IndependentCount(p, 2, &mac), 1);
  for (int i = 0; i < 25; ++i) EXPECT_EQ(mac[i], (*answer)[i]) << i;
  // Brute force over permutations.
  std::vector<int> brute;
  ASSERT_EQ(BruteCount(p, 2, &brute), 1);
  for (int i = 0; i < 25; ++i) EXPECT_EQ(brute[i], (*answer)[i]) << i;
  // The famous questions: the Japanese owns the zebra, the Norwegian drinks water.
  EXPECT_EQ((*answer)[0 * 5 + 4], (*answer)[2 * 5 + 4]);
  EXPECT_EQ((*answer)[0 * 5 + 3], (*answer)[3 * 5 + 4]);
  // And through the family.
  auto d = ZB().Verify(ClassicPuzzle(), ClassicAnswer());
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->details["clues"], 14);
}

// The classic puzzle is expert: propagation stalls, and no one refuted trial
// is enough; two are (docs/families/zebra.md "Levels").
TEST(ZebraClassic, GradesExpertWithTwoRefutedTrials) {
  const ParsedPuzzle p = Parse(ClassicPuzzle());
  const SolveReport r = Solver(5, 5, p.clues).Grade();
  EXPECT_EQ(r.level, 3);
  EXPECT_EQ(r.refutations, 2);
  EXPECT_EQ(r.search_nodes, 0);
  EXPECT_GT(r.open, 0);
  auto d = ZB().Verify(ClassicPuzzle(), ClassicAnswer());
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->level, "expert");
  EXPECT_EQ(d->details["refuted_trials"], 2);
}

TEST(ZebraClassic, ReadsAsTheOriginal) {
  const std::string text = ZB().RenderText(ClassicPuzzle());
  EXPECT_THAT(text, HasSubstr("There are 5 houses"));
  EXPECT_THAT(
      text, HasSubstr("1. The Englishman lives in the same house as the person in the red house."));
  EXPECT_THAT(
      text,
      HasSubstr("The person in the ivory house lives directly to the left of the person in the "
                "green house."));
  EXPECT_THAT(text, HasSubstr("The person who drinks milk lives in the third house."));
  EXPECT_THAT(
      text,
      HasSubstr("The person who smokes Chesterfield lives next to the person who keeps the fox."));
  EXPECT_THAT(text, HasSubstr("pet: dog, snails, fox, horse, zebra"));
}

TEST(ZebraClassic, EveryClueIsNeededButOne) {
  // Drop each clue in turn; brute force says which ones the puzzle needs.
  const ParsedPuzzle p = Parse(ClassicPuzzle());
  int needed = 0;
  for (size_t i = 0; i < p.clues.size(); ++i) {
    ParsedPuzzle q = p;
    q.clues.erase(q.clues.begin() + static_cast<std::ptrdiff_t>(i));
    const int brute = BruteCount(q, 2);
    EXPECT_EQ(IndependentCount(q, 2), brute) << i;
    EXPECT_EQ(Solver(5, 5, q.clues).CountSolutions(2), brute) << i;
    needed += brute > 1;
  }
  EXPECT_GE(needed, 12);  // the classic set is (nearly) minimal
}

// ---- generation ----

TEST(ZebraGenerate, SmallPuzzlesUniqueAndMinimalByBruteForce) {
  for (auto [h, k] :
       std::vector<std::pair<int, int>>{{3, 2}, {3, 3}, {4, 3}, {3, 5}, {4, 4}, {5, 3}}) {
    const auto sample =
        Sample(MakeParams({{"houses", std::to_string(h)}, {"categories", std::to_string(k)}}), 15);
    ASSERT_EQ(sample.size(), 15u) << h << "x" << k;
    for (const Accepted& a : sample) {
      const ParsedPuzzle p = Parse(a.puzzle);
      auto sol = ParseSolution(p, a.solution);
      ASSERT_TRUE(sol.ok());
      std::vector<int> brute;
      ASSERT_EQ(BruteCount(p, 2, &brute), 1) << a.puzzle.dump();
      for (int i = 0; i < h * k; ++i) EXPECT_EQ(brute[i], (*sol)[i]);
      for (size_t i = 0; i < p.clues.size(); ++i) {
        ParsedPuzzle q = p;
        q.clues.erase(q.clues.begin() + static_cast<std::ptrdiff_t>(i));
        EXPECT_EQ(BruteCount(q, 2), 2) << "clue " << i << " is not needed in " << a.puzzle.dump();
      }
      auto v = ZB().Verify(a.puzzle, a.solution);
      ASSERT_TRUE(v.ok()) << v.status().ToString();
      EXPECT_EQ(v->level, a.difficulty.level);
    }
  }
}

TEST(ZebraGenerate, Default5x5UniqueByBruteForceMinimalByVerifier) {
  const auto sample = Sample(MakeParams(), 25, 3);
  ASSERT_EQ(sample.size(), 25u);
  for (const Accepted& a : sample) {
    const ParsedPuzzle p = Parse(a.puzzle);
    EXPECT_EQ(p.houses, 5);
    EXPECT_EQ(p.categories.size(), 5u);
    ASSERT_EQ(BruteCount(p, 2), 1) << a.puzzle.dump();
    for (size_t i = 0; i < p.clues.size(); ++i) {
      ParsedPuzzle q = p;
      q.clues.erase(q.clues.begin() + static_cast<std::ptrdiff_t>(i));
      EXPECT_EQ(IndependentCount(q, 2), 2) << "clue " << i;
    }
  }
}

TEST(ZebraGenerate, LargePuzzlesVerifyIndependently) {
  for (auto [h, k] : std::vector<std::pair<int, int>>{{6, 6}, {8, 8}, {8, 2}, {3, 8}}) {
    for (const Accepted& a :
         Sample(MakeParams({{"houses", std::to_string(h)}, {"categories", std::to_string(k)}}), 3,
                5)) {
      auto v = ZB().Verify(a.puzzle, a.solution);
      ASSERT_TRUE(v.ok()) << v.status().ToString();
      EXPECT_EQ(v->level, a.difficulty.level);
    }
  }
}

TEST(ZebraGenerate, NonMinimalKeepsTheWholePinningSet) {
  const auto minimal = Sample(MakeParams(), 20, 9);
  const auto loose = Sample(MakeParams({{"minimal", "false"}}), 20, 9);
  size_t a = 0, b = 0;
  for (const auto& x : minimal) a += x.puzzle["clues"].size();
  for (const auto& x : loose) {
    b += x.puzzle["clues"].size();
    EXPECT_TRUE(ZB().Verify(x.puzzle, x.solution).ok());
  }
  EXPECT_GT(b, a);
}

TEST(ZebraGenerate, AllClueTypesOccur) {
  std::map<std::string, int> seen;
  for (const Accepted& a : Sample(MakeParams({{"houses", "6"}, {"categories", "4"}}), 200, 13)) {
    for (const auto& c : a.puzzle["clues"]) ++seen[c["type"].get<std::string>()];
  }
  for (int t = 0; t < kClueTypeCount; ++t) {
    EXPECT_GT(seen[std::string(ClueTypeName(static_cast<ClueType>(t)))], 0)
        << ClueTypeName(static_cast<ClueType>(t));
  }
}

// Whether dropping one refuted value (its trial fails) and propagating
// places every item: the hard/expert boundary, by trying every value rather
// than the grader's greedy path.
TEST(ZebraGenerate, SameRngSamePuzzle) {
  Rng a = CandidateRng(42, 5), b = CandidateRng(42, 5);
  const auto x = std::get<Accepted>(ZB().Generate(a, MakeParams()));
  const auto y = std::get<Accepted>(ZB().Generate(b, MakeParams()));
  EXPECT_EQ(x.puzzle, y.puzzle);
  EXPECT_EQ(x.solution, y.solution);
}

// ---- the solvers agree, including on puzzles with 0 or many solutions ----

TEST(ZebraSolvers, DifferentialAgainstBruteForce) {
  Rng rng(99);
  std::map<int, int> seen;
  for (int t = 0; t < 400; ++t) {
    ParsedPuzzle p;
    p.houses = 3 + static_cast<int>(rng.Below(2));
    const int k = 2 + static_cast<int>(rng.Below(3));
    p.categories = ThemedCategories(p.houses, k);
    const int n = p.houses * k;
    const int clues = 2 + static_cast<int>(rng.Below(9));
    for (int i = 0; i < clues; ++i) {
      Clue c;
      c.type = static_cast<ClueType>(rng.Below(kClueTypeCount));
      c.a = static_cast<uint8_t>(rng.Below(n));
      if (IsBinary(c.type)) {
        do {
          c.b = static_cast<uint8_t>(rng.Below(n));
        } while (c.b == c.a || ((c.type == ClueType::kSame || c.type == ClueType::kNotSame) &&
                                c.b / p.houses == c.a / p.houses));
      } else {
        c.house = static_cast<int8_t>(rng.Below(p.houses));
      }
      p.clues.push_back(c);
    }
    const int brute = BruteCount(p, 2);
    ASSERT_EQ(Solver(p.houses, k, p.clues).CountSolutions(2), brute) << PuzzleJson(p).dump();
    ASSERT_EQ(IndependentCount(p, 2), brute) << PuzzleJson(p).dump();
    ++seen[brute];
  }
  EXPECT_GT(seen[0], 10);
  EXPECT_GT(seen[1], 10);
  EXPECT_GT(seen[2], 10);
}

// ---- the family contract ----

TEST(ZebraFamily, ParamsAndErrors) {
  EXPECT_EQ(ZB().name(), "zebra");
  EXPECT_EQ(ZB().id_prefix(), "zb");
  const Params d = MakeParams();
  EXPECT_EQ(d.Int("houses"), 5);
  EXPECT_EQ(d.Int("categories"), 5);
  EXPECT_TRUE(d.Bool("minimal"));
  EXPECT_TRUE(d.goal().Any());
  auto bad = ZB().MakeParams(std::map<std::string, std::string>{{"houses", "9"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("houses"));
  EXPECT_FALSE(ZB().MakeParams(std::map<std::string, std::string>{{"categories", "1"}}).ok());
  EXPECT_FALSE(ZB().MakeParams(std::map<std::string, std::string>{{"level", "insane"}}).ok());
}

TEST(ZebraFamily, VerifyRefusals) {
  // Another answer: swap two nationalities.
  json wrong = ClassicAnswer();
  std::swap(wrong["houses"][0][0], wrong["houses"][0][1]);
  auto r = ZB().Verify(ClassicPuzzle(), wrong);
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("breaks clue"));
  // Not unique: drop clue 10 (the Norwegian in the first house).
  json loose = ClassicPuzzle();
  loose["clues"].erase(8);
  r = ZB().Verify(loose, ClassicAnswer());
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("more than one"));
  // Malformed.
  std::vector<json> bad;
  for (int i = 0; i < 6; ++i) bad.push_back(ClassicPuzzle());
  bad[0]["clues"][0]["type"] = "above";
  bad[1]["clues"][0]["a"] = Item(5, 0);
  bad[2]["clues"][0]["b"] = Item(0, 1);  // same category
  bad[3]["houses"] = 9;
  bad[4]["categories"][0]["items"][1] = "Englishman";
  bad[5]["clues"][7]["house"] = 5;
  for (const json& b : bad) {
    EXPECT_EQ(ZB().Verify(b, ClassicAnswer()).status().code(), Status::Code::kInvalidArgument)
        << b.dump();
  }
  json not_perm = ClassicAnswer();
  not_perm["houses"][0][0] = 2;
  EXPECT_EQ(ZB().Verify(ClassicPuzzle(), not_perm).status().code(), Status::Code::kInvalidArgument);
}

TEST(ZebraFamily, CanonicalBytesIgnoreClueOrderAndSymmetricSides) {
  const json a = ClassicPuzzle();
  json b = a;
  std::reverse(b["clues"].begin(), b["clues"].end());
  for (auto& c : b["clues"]) {
    if (c["type"] == "same" || c["type"] == "next_to") std::swap(c["a"], c["b"]);
  }
  EXPECT_EQ(ZB().CanonicalBytes(a), ZB().CanonicalBytes(b));
  json c = a;
  c["clues"][4]["type"] = "left_of";
  EXPECT_NE(ZB().CanonicalBytes(a), ZB().CanonicalBytes(c));
  json d = a;
  std::swap(d["clues"][4]["a"], d["clues"][4]["b"]);  // immediately_left_of is not symmetric
  EXPECT_NE(ZB().CanonicalBytes(a), ZB().CanonicalBytes(d));
}

TEST(ZebraFamily, SampleCanonicalKeysDistinct) {
  std::set<std::string> keys;
  const auto sample = Sample(MakeParams(), 100, 77);
  for (const Accepted& a : sample) keys.insert(ZB().CanonicalBytes(a.puzzle));
  EXPECT_EQ(keys.size(), sample.size());
}

}  // namespace
}  // namespace foundry::puzzles::zebra
