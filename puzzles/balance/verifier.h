// Independent re-check of a balance puzzle.
//
// Deduction: every hypothesis (coin, heavier?) is weighed against every
// recorded weighing in a plain loop; exactly the solution must agree with
// all results.
// Strategy: the tree is walked with every hypothesis the variant allows
// (each coin heavier, and lighter unless `heavier`): each must end at the
// leaf naming it within `weighings` weighings, pans equal and coins valid,
// no branch may be reached by no coin. Tightness is checked against the
// closed-form bounds (coins.h), not the generator's count-state search.
//
// Thread safety: reentrant.
#pragma once

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::balance {

// Returns the difficulty recomputed from the puzzle. Errors: InvalidArgument
// for malformed JSON (codec.h; a tree node that is neither a weighing nor a
// leaf, or nested deeper than the weighings allow); FailedPrecondition for
// a wrong or ambiguous deduction answer, a tree that misidentifies a coin,
// lacks a reachable branch or has an unreachable one, or a strategy puzzle
// that is not tight.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

}  // namespace foundry::puzzles::balance
