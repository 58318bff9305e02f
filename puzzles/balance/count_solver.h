// The strategy solver of seed 002's Balance game: "we don't need to keep
// track of the individual balls, just totals for each group". A state is
// the counts (unknown, maybe-heavy, maybe-light, known-genuine); a weighing
// is how many of each group go on each pan. Solvable(state, k) searches the
// weighings whose three outcomes each leave at most 3^(k-1) possibilities
// (2 per unknown coin, 1 per maybe-heavy or maybe-light coin), memoised.
// Symmetries keep it small: genuine coins only ever go on the pan with fewer
// suspects (mirroring the pans swaps two outcomes, nothing else), and the
// genuine count is capped at the number of suspects (no weighing can use
// more).
//
// BuildTree() then names real coins: the lowest-numbered coins of each
// group go on the pans, so the tree is a function of the puzzle alone.
//
// Thread safety: a CountSolver is owned by one thread (its memo); the free
// functions are reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "puzzles/balance/coins.h"

namespace foundry::puzzles::balance {

struct CountState {
  int unknown = 0;
  int heavy = 0;    // maybe heavier, not lighter
  int light = 0;    // maybe lighter, not heavier
  int genuine = 0;  // known genuine, available for the pans
  int64_t possibilities() const { return 2 * int64_t{unknown} + heavy + light; }
};

// How many coins of each group go on each pan; genuine ones go left only.
struct CountWeighing {
  int unknown_left = 0, unknown_right = 0;
  int heavy_left = 0, heavy_right = 0;
  int light_left = 0, light_right = 0;
  int genuine_left = 0;
};

// The state after outcome `o` of `w` from `s` (genuine not capped).
CountState After(const CountState& s, const CountWeighing& w, Outcome o);

// The starting state of a variant with `coins` coins.
CountState StartState(Variant v, int coins);

class CountSolver {
 public:
  // A weighing that settles `s` within `k` more weighings, or nullopt when
  // none does. A state with at most one possibility needs no weighing
  // (returns nullopt too: check possibilities() first).
  // REQUIRES: k <= kMaxStrategyWeighings.
  std::optional<CountWeighing> Solve(const CountState& s, int k);
  // True when `s` is settled within k weighings (at most one possibility,
  // or Solve() finds a weighing).
  bool Solvable(const CountState& s, int k);

  // States searched so far (memo entries).
  size_t memo_size() const { return memo_.size(); }

 private:
  std::unordered_map<uint64_t, std::optional<CountWeighing>> memo_;
};

// The fewest weighings that settle `coins` coins of variant v by search, or
// -1 when none up to kMaxStrategyWeighings do.
int SearchMinWeighings(CountSolver& solver, Variant v, int coins);

// The decision tree (its JSON shape: docs/reference.md) for `coins` coins of variant v within
// k weighings, naming real coins. REQUIRES: solver.Solvable(StartState(v,
// coins), k).
nlohmann::json BuildTree(CountSolver& solver, Variant v, int coins, int k);

}  // namespace foundry::puzzles::balance
