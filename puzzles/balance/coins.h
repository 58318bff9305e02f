// The physics of the balance family (seed 002's Balance game): n coins
// numbered from 1, exactly one counterfeit, heavier or lighter; a weighing
// puts equal numbers of coins on two pans and shows which side is heavier.
// In the `reference` variant an extra coin 0 is known to be genuine and may
// go on a pan.
//
// Thread safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace foundry::puzzles::balance {

// Bounds of the coins and weighings parameters.
inline constexpr int kMaxCoins = 120;
inline constexpr int kMaxWeighings = 10;
// The most weighings a strategy may take (its tree depth), for the solver.
inline constexpr int kMaxStrategyWeighings = 5;

enum class Variant { kUnknown, kHeavier, kReference };
std::string_view VariantName(Variant v);
std::optional<Variant> ParseVariant(std::string_view name);

enum class Outcome { kLeftHeavy, kBalanced, kRightHeavy };
std::string_view OutcomeName(Outcome o);  // "left_heavy", "balanced", "right_heavy"
std::optional<Outcome> ParseOutcome(std::string_view name);

// Which coin is counterfeit, and how.
struct Hypothesis {
  int coin = 1;
  bool heavier = true;
  friend bool operator==(const Hypothesis&, const Hypothesis&) = default;
};

struct Weighing {
  std::vector<int> left, right;  // coin numbers, each pan ascending
};

// What the scale shows for `w` when `h` is the truth.
Outcome Weigh(const Weighing& w, const Hypothesis& h);

// The most coins k weighings can settle (find the coin and whether it is
// heavier; in `heavier` only the coin), the classic bounds:
// unknown (3^k - 3) / 2, reference (3^k - 1) / 2, heavier 3^k. An unknown
// puzzle also needs at least 3 coins (with 2 or fewer no strategy exists).
int64_t MaxCoins(Variant v, int weighings);

// The fewest weighings that settle `coins` coins by the bounds above, or -1
// when no number of weighings does (unknown with 1 or 2 coins).
int MinWeighings(Variant v, int coins);

}  // namespace foundry::puzzles::balance
