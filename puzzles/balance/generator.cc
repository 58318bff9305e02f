#include "puzzles/balance/generator.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "puzzles/balance/codec.h"
#include "puzzles/balance/count_solver.h"
#include "puzzles/balance/difficulty.h"

namespace foundry::puzzles::balance {

std::vector<uint32_t> ContradictionMasks(int coins, const std::vector<Weighing>& weighings,
                                         const std::vector<Outcome>& outcomes) {
  std::vector<uint32_t> masks(2 * static_cast<size_t>(coins), 0);
  for (size_t k = 0; k < weighings.size(); ++k) {
    for (int c = 1; c <= coins; ++c) {
      for (int heavier = 0; heavier < 2; ++heavier) {
        if (Weigh(weighings[k], {c, heavier == 1}) != outcomes[k]) {
          masks[2 * (c - 1) + (heavier == 1 ? 0 : 1)] |= 1u << k;
        }
      }
    }
  }
  return masks;
}

Candidate GenerateDeduction(Rng& rng, const DeductionOptions& o) {
  const Hypothesis truth{static_cast<int>(rng.Between(1, o.coins)), rng.Below(2) == 1};
  std::vector<Hypothesis> alive, next;
  for (int c = 1; c <= o.coins; ++c) {
    alive.push_back({c, true});
    alive.push_back({c, false});
  }
  std::vector<int> deck(static_cast<size_t>(o.coins));
  std::iota(deck.begin(), deck.end(), 1);
  DeductionPuzzle p;
  p.coins = o.coins;
  while (alive.size() > 1) {
    if (static_cast<int>(p.weighings.size()) == o.max_weighings) {
      return Rejected{"too_many_weighings"};
    }
    bool placed = false;
    for (int draw = 0; draw < kMaxDrawsPerWeighing && !placed; ++draw) {
      const int size = static_cast<int>(rng.Between(1, o.coins / 2));
      for (int i = 0; i < 2 * size; ++i) {  // a partial Fisher-Yates shuffle
        std::swap(deck[i], deck[i + rng.Below(deck.size() - i)]);
      }
      Weighing w;
      w.left.assign(deck.begin(), deck.begin() + size);
      w.right.assign(deck.begin() + size, deck.begin() + 2 * size);
      std::sort(w.left.begin(), w.left.end());
      std::sort(w.right.begin(), w.right.end());
      const Outcome shown = Weigh(w, truth);
      next.clear();
      for (const Hypothesis& h : alive) {
        if (Weigh(w, h) == shown) next.push_back(h);
      }
      if (next.size() == alive.size()) continue;
      alive.swap(next);
      p.weighings.push_back(std::move(w));
      p.outcomes.push_back(shown);
      placed = true;
    }
    if (!placed) return Rejected{"no_weighing_fits"};
  }

  Accepted a;
  nlohmann::json weighings = nlohmann::json::array();
  std::vector<std::string> keys;
  for (size_t k = 0; k < p.weighings.size(); ++k) {
    weighings.push_back(WeighingJson(p.weighings[k], p.outcomes[k]));
    keys.push_back(WeighingKey(p.weighings[k], p.outcomes[k]));
  }
  a.puzzle = {{"mode", "deduction"}, {"coins", o.coins}, {"weighings", std::move(weighings)}};
  a.solution = {{"coin", truth.coin}, {"heavier", truth.heavier}};
  a.difficulty = RateDeduction(ContradictionMasks(o.coins, p.weighings, p.outcomes), keys);
  return a;
}

namespace {

// 0 when k is tight for n, else the rejection reason.
const char* Tightness(CountSolver& solver, int n, int k, Variant v) {
  // With one or two coins, heavier or lighter cannot be told apart at all.
  if (v == Variant::kUnknown && n < 3) return "no_strategy_exists";
  const CountState start = StartState(v, n);
  if (!solver.Solvable(start, k)) return "needs_more_weighings";
  if (solver.Solvable(start, k - 1)) return "fewer_weighings_suffice";
  return nullptr;
}

}  // namespace

Candidate GenerateStrategy(Rng& rng, const StrategyOptions& o) {
  const int n = static_cast<int>(rng.Between(1, o.max_coins));
  CountSolver solver;
  if (const char* reason = Tightness(solver, n, o.weighings, o.variant)) return Rejected{reason};
  Accepted a;
  a.puzzle = {{"mode", "strategy"},
              {"coins", n},
              {"weighings", o.weighings},
              {"variant", VariantName(o.variant)}};
  a.solution = {{"tree", BuildTree(solver, o.variant, n, o.weighings)}};
  a.difficulty = RateStrategy(n, o.weighings, o.variant);
  return a;
}

int64_t StrategyPuzzleCount(const StrategyOptions& o) {
  CountSolver solver;
  int64_t count = 0;
  for (int n = 1; n <= o.max_coins; ++n)
    count += Tightness(solver, n, o.weighings, o.variant) == nullptr;
  return count;
}

}  // namespace foundry::puzzles::balance
