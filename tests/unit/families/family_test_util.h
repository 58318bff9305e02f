// Helpers the family tests share: parameters that must parse, the candidates
// of a campaign's stream, and Verify() agreeing with Generate().
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::testing {

// `raw` validated by `family`; a failure fails the test and gives defaults.
inline Params ParamsOrFail(const Family& family, const std::map<std::string, std::string>& raw) {
  auto p = family.MakeParams(raw);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : Params();
}

// The first `wanted` accepted candidates of stream (seed, params), drawing at
// most `attempts` candidates as a campaign draws them.
inline std::vector<Accepted> FirstAccepted(const Family& family, const Params& params, int wanted,
                                           uint64_t seed, int attempts) {
  std::vector<Accepted> out;
  for (int i = 0; i < attempts && static_cast<int>(out.size()) < wanted; ++i) {
    Rng rng = CandidateRng(seed, static_cast<uint64_t>(i));
    Candidate c = family.Generate(rng, params);
    if (auto* a = std::get_if<Accepted>(&c)) out.push_back(std::move(*a));
  }
  return out;
}

// Candidate `index` of stream (seed, params), as a campaign draws it.
inline Candidate GenerateAt(const Family& family, const Params& params, uint64_t seed,
                            uint64_t index) {
  Rng rng = CandidateRng(seed, index);
  return family.Generate(rng, params);
}

// Expects Verify() to accept `a` and to grade it as Generate() did.
inline void ExpectVerifyAgrees(const Family& family, const Accepted& a) {
  auto d = family.Verify(a.puzzle, a.solution);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->level, a.difficulty.level);
  EXPECT_EQ(d->score, a.difficulty.score);
  EXPECT_EQ(d->details, a.difficulty.details);
}

// Expects Verify() to refuse (puzzle, solution) as InvalidArgument with a
// message holding `fragment`.
inline void ExpectVerifyRefuses(const Family& family, const nlohmann::json& puzzle,
                                const nlohmann::json& solution, const std::string& fragment) {
  auto d = family.Verify(puzzle, solution);
  ASSERT_FALSE(d.ok()) << puzzle.dump();
  EXPECT_EQ(d.status().code(), Status::Code::kInvalidArgument) << d.status().ToString();
  EXPECT_THAT(d.status().message(), ::testing::HasSubstr(fragment));
}

}  // namespace foundry::puzzles::testing
