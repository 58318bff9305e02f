// Generation of secret-number puzzles, the seed's process (seed 000):
// start with every number of `digits` digits; draw a random rule; redraw it
// if it leaves no candidate (or, without allow_redundant, if it removes
// none); add it; stop when exactly one candidate is left.
//
// Thread safety: reentrant; shares only the immutable Tables.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <variant>

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/secret_number/tables.h"

namespace foundry::puzzles::secret_number {

// Upper bound of the max_rules parameter, and the most rules Verify() reads.
inline constexpr int kRulesLimit = 30;
// Draws allowed for one rule slot before the candidate is rejected as
// "no_rule_fits" (the guard against an endless redraw loop).
inline constexpr int kMaxDrawsPerRule = 1000;

struct GenerateOptions {
  int digits = 3;        // kMinDigits..kMaxDigits
  int min_rules = 2;     // 1..kRulesLimit
  int max_rules = 10;    // min_rules..kRulesLimit
  bool allow_redundant = true;
};

// A puzzle found by Search(), before it is turned into JSON.
struct Draft {
  int digits = 3;
  std::array<IndexedRule, kRulesLimit> rules;
  int rule_count = 0;
  int64_t number = 0;          // the one number left
  int useful_rules = 0;        // rules that removed a candidate when added
  int64_t before_last = 0;     // candidates just before the last rule
};

// The seed's process without the JSON: a Draft, or a rejection reason (one
// of those listed for Generate(); the view is of a static string).
// Generate() = Search() + Materialize(); the split lets the search be
// measured alone (the JSON objects cost more than the search).
std::variant<Draft, std::string_view> Search(Rng& rng, const GenerateOptions& options);

// The accepted candidate of a draft: puzzle and solution JSON, difficulty.
Accepted Materialize(const Draft& draft);

// One candidate from `rng` (and nothing else). Rejection reasons:
// "too_many_rules" (more than max_rules would be needed), "too_few_rules"
// (one candidate was left after fewer than min_rules), "no_rule_fits"
// (kMaxDrawsPerRule draws in a row were unusable).
// REQUIRES: `options` within the ranges above.
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::secret_number
