// Independent re-check of a secret-number puzzle.
//
// Shares nothing with the generator's tables or candidate sets: it walks
// every number of the puzzle's length (256 at a time), computes each rule's
// subject from the number's decimal digits, and notes the first rule the
// number breaks. Counting those first breaks replays the rules in order
// (how many candidates each rule removed when it was added), which gives
// uniqueness and the difficulty figures in one pass.
//
// Thread safety: reentrant.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"
#include "puzzles/secret_number/rules.h"

namespace foundry::puzzles::secret_number {

// Returns the difficulty recomputed by replaying the rules. Errors:
// InvalidArgument for a malformed puzzle or solution (see codec.h);
// FailedPrecondition when no number satisfies the rules, when the solution
// breaks a rule, or when more than one number satisfies them.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when `number` satisfies every rule, computed from its decimal digits
// as Verify() does (the check behind a player's typed answer).
// REQUIRES: `number` has exactly `digits` digits.
bool SatisfiesRules(const std::vector<Rule>& rules, int64_t number, int digits);

}  // namespace foundry::puzzles::secret_number
