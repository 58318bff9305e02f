// The balance family (seed 002's Balance game, the 12-ball problem): one
// counterfeit among n coins, heavier or lighter, and a two-pan scale.
// mode=deduction: a record of weighings that pins the counterfeit;
// mode=strategy: plan k weighings that always find it (a decision tree).
// See docs/families/balance.md and family.h for the contract.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include <cstdint>

#include "puzzles/family.h"

namespace foundry::puzzles::balance {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

// How many distinct puzzles `params` (of this family) can ever produce, or
// -1 when the space is too large to matter (deduction). For mode=strategy
// the puzzle is (coins, weighings, variant), so this is the number of coin
// counts in 1..coins for which the weighings are tight: 9 for the defaults
// with mode=strategy. A campaign asking for more ends `exhausted`.
// REQUIRES: params came from TheFamily().MakeParams().
int64_t DistinctPuzzles(const Params& params);

}  // namespace foundry::puzzles::balance
