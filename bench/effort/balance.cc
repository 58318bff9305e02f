// BalanceEffort: the hypotheses a player still holds, summed over the
// weighings they reason through. The default mode is `deduction`, the
// only one build/bin/levels measures (it runs default parameters).
//
// Deduction: start with the 2n hypotheses (coin c, heavier or lighter);
// take the weighings as listed, and after weighing t count the hypotheses
// that give results 1..t; the figure is the sum of those counts over all
// weighings (the last one, 1, included). A plain reader's work, in the
// record's order; the grade (difficulty.h) takes the weighing that leaves
// the fewest first and weighs the chain on a log scale.
//
// Strategy: the hypotheses the player's plan must tell apart, counted at
// every weighing they reach: each hypothesis (coin c heavier, and lighter
// unless the variant is `heavier`) walks the solution's decision tree from
// the root, adding one per weighing on its path, until its leaf, which must
// name it. The figure is the sum, i.e. over the tree's weighings of the
// hypotheses alive there: the strategy counterpart of the deduction sum.
//
// Independent of the grade, of the count-state solver and of the verifier:
// the scale is restated here; only the JSON readers (codec.h) are shared.
// An error when the record does not leave exactly the solution, or a
// hypothesis reaches a missing branch or a wrong leaf.
#include <string>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/balance/codec.h"

namespace foundry::bench {
namespace {

using puzzles::balance::Hypothesis;
using puzzles::balance::Outcome;
using puzzles::balance::Weighing;

bool Contains(const std::vector<int>& pan, int coin) {
  for (int c : pan) {
    if (c == coin) return true;
  }
  return false;
}

// The scale: the pan holding a heavier coin goes down, a lighter one up.
Outcome Tilt(const Weighing& w, const Hypothesis& h) {
  const bool left = Contains(w.left, h.coin), right = Contains(w.right, h.coin);
  if (!left && !right) return Outcome::kBalanced;
  return left == h.heavier ? Outcome::kLeftHeavy : Outcome::kRightHeavy;
}

Result<double> DeductionEffort(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = puzzles::balance::ParseDeduction(puzzle);
  if (!p.ok()) return p.status();
  auto answer = puzzles::balance::ParseDeductionSolution(solution, p->coins);
  if (!answer.ok()) return answer.status();
  std::vector<Hypothesis> alive;
  for (int c = 1; c <= p->coins; ++c) {
    alive.push_back({c, true});
    alive.push_back({c, false});
  }
  double sum = 0;
  for (size_t t = 0; t < p->weighings.size(); ++t) {
    std::vector<Hypothesis> kept;
    for (const Hypothesis& h : alive) {
      if (Tilt(p->weighings[t], h) == p->outcomes[t]) kept.push_back(h);
    }
    alive.swap(kept);
    sum += static_cast<double>(alive.size());
  }
  if (alive.size() != 1 || !(alive[0] == *answer)) {
    return Status::FailedPrecondition("the weighings do not leave exactly the solution");
  }
  return sum;
}

Result<double> StrategyEffort(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = puzzles::balance::ParseStrategy(puzzle);
  if (!p.ok()) return p.status();
  if (!solution.is_object() || !solution.contains("tree")) {
    return Status::InvalidArgument("strategy solution has no tree");
  }
  const bool reference = p->variant == puzzles::balance::Variant::kReference;
  double sum = 0;
  for (int c = 1; c <= p->coins; ++c) {
    for (bool heavier : {true, false}) {
      if (!heavier && p->variant == puzzles::balance::Variant::kHeavier) continue;
      const Hypothesis h{c, heavier};
      const nlohmann::json* node = &solution.at("tree");
      while (node->is_object() && node->contains("left")) {
        auto w = puzzles::balance::ParsePans(*node, p->coins, reference, "tree node");
        if (!w.ok()) return w.status();
        sum += 1;
        const std::string branch(puzzles::balance::OutcomeName(Tilt(*w, h)));
        if (!node->contains(branch)) {
          return Status::FailedPrecondition("a hypothesis reaches a missing branch: " + branch);
        }
        node = &node->at(branch);
      }
      const bool names_it = node->is_object() && node->value("coin", -1) == c &&
                            (p->variant == puzzles::balance::Variant::kHeavier ||
                             node->value("heavier", !heavier) == heavier);
      if (!names_it) return Status::FailedPrecondition("a leaf names the wrong hypothesis");
    }
  }
  return sum;
}

Result<double> BalanceEffort(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto strategy = puzzles::balance::IsStrategy(puzzle);
  if (!strategy.ok()) return strategy.status();
  return *strategy ? StrategyEffort(puzzle, solution) : DeductionEffort(puzzle, solution);
}

const bool kRegistered =
    RegisterEffort({"balance", "hypotheses left, listed order, summed", &BalanceEffort});

}  // namespace
}  // namespace foundry::bench
