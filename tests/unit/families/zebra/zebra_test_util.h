// Shared by the zebra family's tests: the family, its parameters and
// samples, and puzzles parsed where a failure fails the test.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/zebra/codec.h"
#include "puzzles/zebra/zebra.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::zebra {

inline const Family& ZB() { return TheFamily(); }

// `raw` validated by the family; a failure fails the test and gives defaults.
inline Params MakeParams(const std::map<std::string, std::string>& raw = {}) {
  return testing::ParamsOrFail(ZB(), raw);
}

// The first `wanted` accepted puzzles of stream (seed, params).
inline std::vector<Accepted> Sample(const Params& params, int wanted, uint64_t seed = 7,
                                    int attempts = 3000) {
  return testing::FirstAccepted(ZB(), params, wanted, seed, attempts);
}

// `j` parsed; a failure fails the test and gives an empty puzzle.
inline ParsedPuzzle Parse(const nlohmann::json& j) {
  auto p = ParsePuzzle(j);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : ParsedPuzzle{};
}

}  // namespace foundry::puzzles::zebra
