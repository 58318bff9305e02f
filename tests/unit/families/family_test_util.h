// Helpers the family tests share: parameters that must parse, and the first
// accepted candidates of a campaign's stream.
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

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

}  // namespace foundry::puzzles::testing
