#include "puzzles/balance/difficulty.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "puzzles/elimination_chain.h"

namespace foundry::puzzles::balance {
namespace {

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

Difficulty Graded(double raw) {
  const double score = std::round(std::clamp(raw, 0.0, 1.0) * 1000) / 1000;
  Difficulty d;
  d.level = LevelForScore(score, kLevelFloors);
  d.score = score;
  d.details = nlohmann::json::object();
  return d;
}

double Round3(double x) { return std::round(x * 1000) / 1000; }

}  // namespace

Difficulty RateDeduction(std::span<const uint32_t> masks, std::span<const std::string> keys) {
  const int weighings = static_cast<int>(keys.size());
  const double log_n = std::log(static_cast<double>(masks.size()));
  double work = 0;
  int needed = weighings;
  nlohmann::json chain = nlohmann::json::array();
  const std::vector<int64_t> left_after = GreedyChain(GroupMasks(masks, weighings), keys);
  for (int step = 0; step < weighings; ++step) {
    const int64_t left = left_after[step];
    chain.push_back(left);
    if (left > 1) work += std::log(static_cast<double>(left)) / log_n;
    if (left == 1 && needed == weighings) needed = step + 1;
  }
  const int redundant = weighings - needed;
  Difficulty d = Graded((work + 0.25 * redundant - kDeductionFloor) / kDeductionSpan);
  d.details["weighings"] = weighings;
  d.details["needed"] = needed;
  d.details["redundant"] = redundant;
  d.details["hypotheses_after"] = std::move(chain);
  d.details["work"] = Round3(work);
  return d;
}

Difficulty RateStrategy(int coins, int k, Variant v) {
  const int64_t below = std::max<int64_t>(0, MaxCoins(v, k - 1));
  const int64_t top = MaxCoins(v, k);
  const double fill = static_cast<double>(coins - below) / static_cast<double>(top - below);
  const double bonus = v == Variant::kUnknown ? 0.5 : v == Variant::kReference ? 0.25 : 0.0;
  Difficulty d = Graded((k - 1 + fill + bonus) / 4.5);
  d.details["weighings"] = k;
  d.details["coins"] = coins;
  d.details["fill"] = Round3(fill);
  return d;
}

}  // namespace foundry::puzzles::balance
