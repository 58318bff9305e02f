// Generation of balance puzzles.
//
// Deduction: draw the counterfeit (coin, heavier?) uniformly; then draw
// weighings (pan size uniform in 1..coins/2, the coins a uniform random
// choice, split between the pans) and keep each one whose result rules out
// at least one hypothesis, until exactly one (coin, heavier?) is left.
// Rejections: "too_many_weighings" (more than max_weighings needed),
// "no_weighing_fits" (kMaxDrawsPerWeighing useless draws in a row).
//
// Strategy: draw the coin count n uniformly in 1..coins; accept when k =
// weighings is tight for n (the count-state solver settles n coins in k
// weighings and not in k - 1), with the solver's tree. Rejections:
// "needs_more_weighings" (k do not suffice), "fewer_weighings_suffice",
// "no_strategy_exists" (unknown with 1 or 2 coins).
// The puzzle is (n, k, variant) alone, so only StrategyPuzzleCount() of
// them exist: every accepted candidate after those is a duplicate, and a
// large campaign ends `exhausted`.
//
// Thread safety: reentrant (each call owns its solver memo).
#pragma once

#include <cstdint>

#include "puzzles/balance/coins.h"
#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::balance {

inline constexpr int kMaxDrawsPerWeighing = 1000;

struct DeductionOptions {
  int coins = 12;         // 3..kMaxCoins
  int max_weighings = 6;  // 1..kMaxWeighings
};

struct StrategyOptions {
  int max_coins = 12;  // 1..kMaxCoins
  int weighings = 3;   // 1..kMaxStrategyWeighings
  Variant variant = Variant::kUnknown;
};

Candidate GenerateDeduction(Rng& rng, const DeductionOptions& options);
Candidate GenerateStrategy(Rng& rng, const StrategyOptions& options);

// How many distinct strategy puzzles `options` can produce: the coin counts
// n in 1..max_coins for which `weighings` is tight. 9 for the defaults
// (unknown, 3 weighings: n = 4..12).
int64_t StrategyPuzzleCount(const StrategyOptions& options);

// For each hypothesis (coin c heavier: index 2(c-1), lighter: 2(c-1)+1),
// the weighings of `weighings`/`outcomes` it contradicts, bit k for
// weighing k. REQUIRES: at most 32 weighings.
std::vector<uint32_t> ContradictionMasks(int coins, const std::vector<Weighing>& weighings,
                                         const std::vector<Outcome>& outcomes);

}  // namespace foundry::puzzles::balance
