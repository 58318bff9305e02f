#include "puzzles/secret_number/difficulty.h"

#include <algorithm>
#include <cmath>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::secret_number {
namespace {

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

constexpr double kNeededWeight = 0.7;
constexpr double kRedundantWeight = 0.3;
// Needed rules at which the first term saturates: 1 + this.
constexpr double kNeededSpan = 5.0;
// Redundant rules at which the second term saturates.
constexpr double kRedundantSpan = 8.0;

// Smallest number of further rules hitting every mask in `masks` not hit by
// `chosen`, below `best - depth`; updates best.
void Search(const std::vector<uint32_t>& masks, uint32_t chosen, int depth, int& best) {
  if (depth >= best) return;
  const auto open =
      std::find_if(masks.begin(), masks.end(), [&](uint32_t m) { return (m & chosen) == 0; });
  if (open == masks.end()) {
    best = depth;
    return;
  }
  if (depth + 1 >= best) return;
  for (uint32_t bits = *open; bits != 0; bits &= bits - 1) {
    Search(masks, chosen | (bits & -bits), depth + 1, best);
  }
}

}  // namespace

int SmallestHittingSet(std::vector<uint32_t> masks, int rules) {
  // Duplicates first (cheap: plain integers), then the few distinct masks by
  // size: a mask that contains another is hit whenever the other is: drop it.
  std::sort(masks.begin(), masks.end());
  masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
  std::sort(masks.begin(), masks.end(), [](uint32_t a, uint32_t b) {
    const int pa = BitCount64(a), pb = BitCount64(b);
    return pa != pb ? pa < pb : a < b;
  });
  std::vector<uint32_t> minimal;
  for (uint32_t m : masks) {
    const bool dominated =
        std::any_of(minimal.begin(), minimal.end(), [&](uint32_t k) { return (k & m) == k; });
    if (!dominated) minimal.push_back(m);
  }
  int best = rules;
  Search(minimal, 0, 0, best);
  return best;
}

double ScoreOf(int rules, int needed_rules) {
  const int redundant = rules - needed_rules;
  const double needed = std::clamp((needed_rules - 1) / kNeededSpan, 0.0, 1.0);
  const double noise = std::clamp(redundant / kRedundantSpan, 0.0, 1.0);
  return std::round((kNeededWeight * needed + kRedundantWeight * noise) * 1000) / 1000;
}

int LevelIndexOf(double score) {
  int level = 0;
  while (level + 1 < static_cast<int>(kLevelFloors.size()) && score >= kLevelFloors[level + 1]) {
    ++level;
  }
  return level;
}

Difficulty RateDifficulty(int rules, int useful_rules, int needed_rules) {
  const int redundant = rules - needed_rules;
  const double score = ScoreOf(rules, needed_rules);

  Difficulty d;
  d.level = LevelForScore(score, kLevelFloors);
  d.score = score;
  d.details = nlohmann::json::object();
  d.details["rules"] = rules;
  d.details["useful_rules"] = useful_rules;
  d.details["needed_rules"] = needed_rules;
  d.details["redundant_rules"] = redundant;
  return d;
}

}  // namespace foundry::puzzles::secret_number
