#include "puzzles/bulls_cows/difficulty.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "puzzles/elimination_chain.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

}  // namespace

Difficulty RateDifficulty(std::span<const uint32_t> masks, std::span<const uint64_t> keys) {
  const int clues = static_cast<int>(keys.size());
  const double log_n = std::log(static_cast<double>(masks.size()));
  double work = 0;
  nlohmann::json chain = nlohmann::json::array();
  const std::vector<int64_t> left_after = GreedyChain(GroupMasks(masks, clues), keys);
  for (int step = 0; step < clues; ++step) {
    const int64_t left = left_after[step];
    chain.push_back(left);
    if (step + 1 < clues && left > 1) work += std::log(static_cast<double>(left)) / log_n;
  }
  const double scaled = std::clamp((work - kWorkFloor) / kWorkSpan, 0.0, 1.0);
  const double score = std::round(scaled * 1000) / 1000;
  Difficulty d;
  d.level = LevelForScore(score, kLevelFloors);
  d.score = score;
  d.details = nlohmann::json::object();
  d.details["clues"] = clues;
  d.details["candidates_after"] = std::move(chain);
  d.details["work"] = std::round(work * 1000) / 1000;
  return d;
}

}  // namespace foundry::puzzles::bulls_cows
