// Shared by the families' answer tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "common/status.h"
#include "puzzles/family.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::testing {

// The message of `r`, which must be an InvalidArgument (a failure is added
// otherwise, naming `text`, the answer that was checked).
inline std::string InvalidAnswerMessage(const Result<bool>& r, const std::string& text = "") {
  EXPECT_FALSE(r.ok()) << "answer '" << text << "' should not parse";
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << text;
  return r.status().message();
}

// Expects `r`, the judgement of answer `text`, to parse and to be `right`.
inline void ExpectJudged(const Result<bool>& r, const std::string& text, bool right) {
  ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  EXPECT_EQ(*r, right) << text;
}

// Expects each of the first `wanted` accepted puzzles of stream (seed,
// params) (at most `attempts` drawn) to take its own formatted answer, and
// `wanted` to be found; `also(accepted, answer)` adds the family's checks.
template <typename Also>
void ExpectGeneratedTakeTheirAnswer(const Family& family, const Params& params, int wanted,
                                    uint64_t seed, int attempts, Also also) {
  const auto accepted = FirstAccepted(family, params, wanted, seed, attempts);
  for (const Accepted& a : accepted) {
    const std::string answer = family.FormatAnswer(a.puzzle, a.solution);
    ExpectJudged(family.CheckAnswer(a.puzzle, a.solution, answer), answer, true);
    also(a, answer);
  }
  EXPECT_EQ(accepted.size(), static_cast<size_t>(wanted));
}

}  // namespace foundry::puzzles::testing
