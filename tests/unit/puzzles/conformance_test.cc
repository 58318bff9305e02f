// The conformance suite: every registered family keeps the family contract.
// A new family gets these tests by its registration line alone.
#include <set>

#include <gtest/gtest.h>

#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::puzzles {
namespace {

constexpr int kWanted = 20;
constexpr int kAttempts = 4000;

class ConformanceTest : public ::testing::TestWithParam<const Family*> {
 protected:
  const Family& family() const { return *GetParam(); }
  Params Defaults() const { return *family().MakeParams(std::map<std::string, std::string>{}); }

  // Up to kWanted accepted candidates of a fixed stream.
  std::vector<Accepted> Sample(uint64_t seed = 99) const {
    std::vector<Accepted> out;
    const Params params = Defaults();
    for (int i = 0; i < kAttempts && static_cast<int>(out.size()) < kWanted; ++i) {
      Rng rng = CandidateRng(seed, static_cast<uint64_t>(i));
      Candidate c = family().Generate(rng, params);
      if (auto* a = std::get_if<Accepted>(&c)) out.push_back(std::move(*a));
    }
    return out;
  }
};

TEST_P(ConformanceTest, IdentityIsWellFormed) {
  EXPECT_FALSE(family().name().empty());
  EXPECT_GE(family().id_prefix().size(), 2u);
  EXPECT_FALSE(family().summary().empty());
  for (const Family* other : AllFamilies()) {
    if (other == GetParam()) continue;
    EXPECT_NE(other->name(), family().name());
    EXPECT_NE(other->id_prefix(), family().id_prefix());
  }
}

TEST_P(ConformanceTest, DefaultParamsRoundTripThroughJson) {
  const Params p = Defaults();
  for (const auto& spec : family().param_specs()) EXPECT_TRUE(p.json().contains(spec.key)) << spec.key;
  auto again = family().MakeParams(p.json());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->json(), p.json());
  auto bad = family().MakeParams(std::map<std::string, std::string>{{"no_such_key", "1"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no_such_key"), std::string::npos);
}

TEST_P(ConformanceTest, GeneratedPuzzlesVerifyAtTheirOwnGrade) {
  const auto sample = Sample();
  ASSERT_FALSE(sample.empty()) << "no candidate accepted in " << kAttempts;
  for (const Accepted& a : sample) {
    auto d = family().Verify(a.puzzle, a.solution);
    ASSERT_TRUE(d.ok()) << d.status().ToString() << "\n" << a.puzzle.dump();
    EXPECT_EQ(d->level, a.difficulty.level);
    EXPECT_TRUE(IsLevel(a.difficulty.level)) << a.difficulty.level;
    EXPECT_GE(a.difficulty.score, 0.0);
    EXPECT_LE(a.difficulty.score, 1.0);
    EXPECT_FALSE(family().RenderText(a.puzzle).empty());
  }
}

TEST_P(ConformanceTest, JsonRoundTripKeepsThePuzzleAndItsId) {
  for (const Accepted& a : Sample()) {
    const auto puzzle = nlohmann::json::parse(a.puzzle.dump());
    const auto solution = nlohmann::json::parse(a.solution.dump());
    ASSERT_TRUE(family().Verify(puzzle, solution).ok());
    EXPECT_EQ(family().CanonicalBytes(puzzle), family().CanonicalBytes(a.puzzle));
    const std::string id = PuzzleId(family(), family().CanonicalBytes(puzzle));
    EXPECT_TRUE(LooksLikePuzzleId(id)) << id;
    EXPECT_EQ(id.substr(0, family().id_prefix().size() + 1), std::string(family().id_prefix()) + "-");
  }
}

TEST_P(ConformanceTest, SameSeedSamePuzzleDifferentSeedDifferentStream) {
  const auto a = Sample(5), b = Sample(5), c = Sample(6);
  ASSERT_EQ(a.size(), b.size());
  std::set<std::string> ca, cc;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].puzzle.dump(), b[i].puzzle.dump());
    EXPECT_EQ(a[i].solution.dump(), b[i].solution.dump());
    ca.insert(family().CanonicalBytes(a[i].puzzle));
  }
  for (const auto& x : c) cc.insert(family().CanonicalBytes(x.puzzle));
  if (ca.size() > 3) {
    EXPECT_NE(ca, cc);
  }
}

TEST_P(ConformanceTest, AnotherPuzzlesSolutionIsRefused) {
  const auto sample = Sample();
  int checked = 0;
  for (size_t i = 1; i < sample.size(); ++i) {
    if (sample[i].solution == sample[0].solution) continue;
    EXPECT_FALSE(family().Verify(sample[0].puzzle, sample[i].solution).ok());
    ++checked;
  }
  if (sample.size() > 3) {
    EXPECT_GT(checked, 0);
  }
}

TEST_P(ConformanceTest, MalformedJsonIsInvalidArgumentNotACrash) {
  for (const nlohmann::json& junk :
       {nlohmann::json(nullptr), nlohmann::json(42), nlohmann::json::array(),
        nlohmann::json::object(), nlohmann::json{{"unexpected", true}}}) {
    auto r = family().Verify(junk, junk);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(AllFamilies, ConformanceTest, ::testing::ValuesIn(AllFamilies().begin(), AllFamilies().end()),
                         [](const ::testing::TestParamInfo<const Family*>& info) {
                           std::string n(info.param->name());
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace foundry::puzzles
