// Generation of secret-number puzzles, the seed's process (seed 000):
// start with every number of `digits` digits; draw a random rule; redraw it
// if it leaves no candidate (or, without allow_redundant, if it removes
// none); add it; stop when exactly one candidate is left. A campaign that
// asks for a level may lean the draws toward it (GenerateOptions::aim_level).
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

// The level (index into kLevels) at which an aimed generation leans toward
// weak rules: the one level the seed's process rarely reaches (3% of the
// accepted puzzles at default parameters, docs/families/secret-number.md).
inline constexpr int kWeakRulesLevel = 3;
// Under that aim, a drawn rule that would keep fewer than 1/kWeakKeep of the
// candidates left is redrawn like a rule that keeps none: the number is then
// pinned by more, weaker rules that only work together (expert takes
// needed_rules >= 6 at default parameters). 8 measured best of 3..40 at
// digits 3 (3 or 4 run out of max_rules: 85-98% too_many_rules).
inline constexpr int64_t kWeakKeep = 8;

struct GenerateOptions {
  int digits = 3;      // kMinDigits..kMaxDigits
  int min_rules = 2;   // 1..kRulesLimit
  int max_rules = 10;  // min_rules..kRulesLimit
  bool allow_redundant = true;
  // The level asked for (index into kLevels), -1 for none. With -1 the
  // generation is exactly the seed's process (the stream of a campaign
  // without a level never changes). Otherwise a draft whose grade misses
  // the level is rejected as "level" before its JSON is built, and at
  // kWeakRulesLevel the draws lean toward weak rules (kWeakKeep). Aiming
  // never changes what the other options mean: every accepted puzzle is
  // one the plain process could have drawn with the same options.
  int aim_level = -1;
};

// A puzzle found by Search(), before it is turned into JSON.
struct Draft {
  int digits = 3;
  std::array<IndexedRule, kRulesLimit> rules;
  int rule_count = 0;
  int64_t number = 0;       // the one number left
  int useful_rules = 0;     // rules that removed a candidate when added
  int64_t before_last = 0;  // candidates just before the last rule
};

// The seed's process without the JSON: a Draft, or a rejection reason (one
// of those listed for Generate(); the view is of a static string).
// Generate() = Search() + Materialize(); the split lets the search be
// measured alone (the JSON objects cost more than the search).
std::variant<Draft, std::string_view> Search(Rng& rng, const GenerateOptions& options);

// The accepted candidate of a draft: puzzle and solution JSON, difficulty.
Accepted Materialize(const Draft& draft);
// The same, with NeededRules(draft) already known.
Accepted Materialize(const Draft& draft, int needed_rules);

// The size of the smallest subset of the draft's rules that still leaves
// only its number (difficulty.h's needed_rules), by bitsets for digits 2-3.
int NeededRules(const Draft& draft);

// One candidate from `rng` (and nothing else). Rejection reasons:
// "too_many_rules" (more than max_rules would be needed), "too_few_rules"
// (one candidate was left after fewer than min_rules), "no_rule_fits"
// (kMaxDrawsPerRule draws in a row were unusable), and with aim_level >= 0
// "level" (the puzzle's grade is not the level aimed at).
// REQUIRES: `options` within the ranges above.
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::secret_number
