// Difficulty of balance puzzles, from the weighings the solver must reason
// through. Levels: score below 0.25 easy, 0.5 medium, 0.75 hard, else
// expert (docs/families/balance.md has the distributions).
//
// Deduction. Input: for each of the 2n hypotheses (coin, heavier?), the
// weighings it contradicts as a bitmask (the answer contradicts none). The
// solver applies first the weighing that leaves the fewest hypotheses, then
// the one that leaves the fewest with it, and so on (ties: the smaller
// WeighingKey, so record order does not matter): a chain c_1 >= .. >= 1.
//   work      = sum over t of ln(c_t) / ln(2n) while c_t > 1
//   redundant = weighings after the chain reaches 1 (not needed)
//   score     = clamp((work + 0.25 * redundant - kDeductionFloor) /
//                     kDeductionSpan, 0, 1)
// A weighing that leaves many hypotheses has to be combined with others;
// redundant weighings are noise to see through (seed 000's "which rules are
// useful" applies here too). details: weighings, needed, redundant,
// hypotheses_after (the chain), work.
//
// Strategy. The weighings needed, k, and how far into the range k handles
// the coin count lies: fill = (n - MaxCoins(k-1)) / (MaxCoins(k) -
// MaxCoins(k-1)) in (0, 1] (12 coins in 3 weighings, unknown, fills it).
//   score = clamp((k - 1 + fill + bonus) / 4.5, 0, 1)
// with bonus 0.5 for unknown, 0.25 for reference, 0 for heavier (the
// heavy-or-light doubt is what makes the classic puzzle hard). details:
// weighings, coins, fill.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "puzzles/balance/coins.h"
#include "puzzles/family.h"

namespace foundry::puzzles::balance {

inline constexpr double kDeductionFloor = 0.4;
inline constexpr double kDeductionSpan = 1.4;

// REQUIRES: keys.size() <= 32, one key per weighing; exactly one mask is 0.
Difficulty RateDeduction(std::span<const uint32_t> masks, std::span<const std::string> keys);

// REQUIRES: k = MinWeighings(v, coins) >= 1.
Difficulty RateStrategy(int coins, int k, Variant v);

}  // namespace foundry::puzzles::balance
