// Independent re-check of a bulls-cows puzzle.
//
// Shares nothing with the generator's Universe or score table: it walks
// every number below 10^length in a plain loop, keeps those with distinct
// digits (and no leading zero unless allowed), scores each clue against it
// digit by digit, and collects the clues each code breaks. That gives
// uniqueness and the difficulty figures in one pass.
//
// Thread safety: reentrant.
#pragma once

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::bulls_cows {

// Returns the difficulty recomputed from the puzzle. Errors: InvalidArgument
// for a malformed puzzle or solution (see codec.h); FailedPrecondition when
// a clue's guess is the secret, the solution breaks a clue, or the number of
// consistent codes is not exactly one.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

}  // namespace foundry::puzzles::bulls_cows
