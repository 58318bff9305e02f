// Generation toward a level (generator.h, aim_level): expert is reached at
// default parameters, what is accepted verifies at the level asked for, and
// a campaign that asks for no level draws exactly the stream it drew before
// aiming existed.
#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "puzzles/puzzle_id.h"
#include "puzzles/secret_number/secret_number.h"

namespace foundry::puzzles::secret_number {
namespace {

Params MakeParams(const std::map<std::string, std::string>& raw) {
  auto p = TheFamily().MakeParams(raw);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return *p;
}

// Each level at default parameters within `budget` candidates of one seed;
// every accepted puzzle has the level, by the generator and by Verify.
void ExpectLevelReached(std::string_view level, int budget) {
  const Params params = MakeParams({{"level", std::string(level)}});
  int found = 0;
  for (int i = 0; i < budget; ++i) {
    Rng rng = CandidateRng(11, static_cast<uint64_t>(i));
    Candidate c = TheFamily().Generate(rng, params);
    const auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    ++found;
    EXPECT_EQ(a->difficulty.level, level);
    auto v = TheFamily().Verify(a->puzzle, a->solution);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_EQ(v->ToJson(), a->difficulty.ToJson()) << a->puzzle.dump();
  }
  // Expert is about 3% of the aimed candidates (1.7% unaimed): 1,000 give
  // ~30; the others are 7-24% of any stream.
  EXPECT_GE(found, 5) << level << " in " << budget << " candidates";
}

TEST(SecretNumberLevelsTest, EachLevelIsReachedAtDefaultParams) {
  ExpectLevelReached("easy", 300);
  ExpectLevelReached("medium", 300);
  ExpectLevelReached("hard", 300);
  ExpectLevelReached("expert", 1000);
}

// Aiming at expert must not change what the options mean: no more rules
// than max_rules, and without allow_redundant every rule removes a number.
TEST(SecretNumberLevelsTest, AimedExpertKeepsTheOptions) {
  const Params params =
      MakeParams({{"level", "expert"}, {"max_rules", "9"}, {"allow_redundant", "false"}});
  int found = 0;
  for (int i = 0; i < 3000; ++i) {
    Rng rng = CandidateRng(12, static_cast<uint64_t>(i));
    Candidate c = TheFamily().Generate(rng, params);
    const auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    ++found;
    EXPECT_LE(a->puzzle.at("rules").size(), 9u);
    EXPECT_EQ(a->difficulty.details.at("useful_rules"), a->difficulty.details.at("rules"));
    EXPECT_EQ(a->difficulty.level, "expert");
  }
  EXPECT_GT(found, 0);
}

// Ids (or rejection reasons) of the plain stream, recorded by running the
// generator as it was before aiming existed (2026-11-24). A campaign that
// asks for no level must keep drawing exactly these.
struct Recorded {
  int digits;
  uint64_t seed;
  uint64_t index;
  const char* outcome;  // puzzle id, or the rejection reason
  const char* level;    // "" when rejected
};
constexpr Recorded kRecorded[] = {
    {2, 1, 0, "sn-652b04bb3ea0544be561628ca5b8083e", "hard"},
    {2, 1, 1, "too_few_rules", ""},
    {2, 42, 1, "sn-feedf4992515e2d4fb1794f46e9cce3d", "easy"},
    {2, 42, 1000, "sn-a1f799fc9976b80619cb15a840a30ca0", "medium"},
    {3, 1, 0, "sn-9fdd4824de1e8bd52a25dbcf2d3d5d44", "medium"},
    {3, 1, 1, "too_many_rules", ""},
    {3, 1, 3, "sn-a27e2095c86748c5255f579e13c1cbdb", "hard"},
    {3, 1, 5, "too_few_rules", ""},
    {3, 1, 1000, "sn-2ae0da460de13ce37edb2524b8e27a15", "medium"},
    {3, 42, 0, "sn-66c938880352c929f45eafea025d7b28", "medium"},
    {3, 42, 1, "sn-62693191762abbb7f0f18b29f9b0eb0f", "hard"},
    {4, 1, 2, "sn-0609606796a86c8d24d71dc20a12eb0b", "hard"},
    {4, 1, 3, "sn-83290ac21f4f9ce587d37b4fa5e2958f", "expert"},
    {4, 42, 0, "sn-da044f6a889a206c89e828cc1b4f6656", "expert"},
    {4, 42, 5, "sn-a2838a4cdfe667f2f7db1488c1554f93", "easy"},
};

TEST(SecretNumberLevelsTest, AnyLevelStreamIsUnchanged) {
  for (const Recorded& r : kRecorded) {
    SCOPED_TRACE(testing::Message()
                 << "digits " << r.digits << " seed " << r.seed << " index " << r.index);
    const Params params = MakeParams({{"digits", std::to_string(r.digits)}});
    Rng rng = CandidateRng(r.seed, r.index);
    Candidate c = TheFamily().Generate(rng, params);
    if (const auto* a = std::get_if<Accepted>(&c)) {
      EXPECT_EQ(PuzzleId(TheFamily(), TheFamily().CanonicalBytes(a->puzzle)), r.outcome);
      EXPECT_EQ(a->difficulty.level, r.level);
    } else {
      EXPECT_EQ(std::get<Rejected>(c).reason, r.outcome);
    }
  }
}

// Asking for the level a plain candidate already has gives that very
// puzzle (non-expert aims only sort drafts; they do not redraw).
TEST(SecretNumberLevelsTest, AimBelowExpertKeepsThePlainPuzzle) {
  const Params any = MakeParams({});
  for (uint64_t i = 0; i < 300; ++i) {
    Rng a = CandidateRng(13, i);
    Candidate plain = TheFamily().Generate(a, any);
    const auto* p = std::get_if<Accepted>(&plain);
    if (p == nullptr || p->difficulty.level == "expert") continue;
    Rng b = CandidateRng(13, i);
    Candidate aimed = TheFamily().Generate(b, MakeParams({{"level", p->difficulty.level}}));
    ASSERT_TRUE(std::holds_alternative<Accepted>(aimed));
    EXPECT_EQ(std::get<Accepted>(aimed).puzzle, p->puzzle);
  }
}

}  // namespace
}  // namespace foundry::puzzles::secret_number
