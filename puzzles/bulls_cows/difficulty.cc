#include "puzzles/bulls_cows/difficulty.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace foundry::puzzles::bulls_cows {
namespace {

constexpr int kBucketClues = 12;

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

}  // namespace

Difficulty RateDifficulty(std::span<const uint32_t> masks, std::span<const uint64_t> keys) {
  // Equal masks behave alike: count them once each (by buckets when the
  // clues are few, as generated puzzles' are; else by sorting).
  const int clues = static_cast<int>(keys.size());
  std::vector<std::pair<uint32_t, int64_t>> groups;
  if (clues <= kBucketClues) {
    std::vector<int64_t> count(size_t{1} << clues, 0);
    for (uint32_t m : masks) ++count[m];
    for (uint32_t m = 0; m < count.size(); ++m) {
      if (count[m] > 0) groups.push_back({m, count[m]});
    }
  } else {
    std::vector<uint32_t> sorted(masks.begin(), masks.end());
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t m : sorted) {
      if (!groups.empty() && groups.back().first == m) {
        ++groups.back().second;
      } else {
        groups.push_back({m, 1});
      }
    }
  }
  const double log_n = std::log(static_cast<double>(masks.size()));
  uint32_t applied = 0;
  double work = 0;
  nlohmann::json chain = nlohmann::json::array();
  for (int step = 0; step < clues; ++step) {
    int best = -1;
    int64_t best_left = 0;
    for (int c = 0; c < clues; ++c) {
      if (applied & (1u << c)) continue;
      const uint32_t with = applied | (1u << c);
      int64_t left = 0;
      for (const auto& [m, count] : groups) left += (m & with) == 0 ? count : 0;
      if (best < 0 || left < best_left || (left == best_left && keys[c] < keys[best])) {
        best = c;
        best_left = left;
      }
    }
    applied |= 1u << best;
    chain.push_back(best_left);
    if (step + 1 < clues && best_left > 1) work += std::log(static_cast<double>(best_left)) / log_n;
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
