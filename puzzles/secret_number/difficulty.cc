#include "puzzles/secret_number/difficulty.h"

#include <algorithm>
#include <cmath>

namespace foundry::puzzles::secret_number {
namespace {

// The one table of levels: the least score of each, easiest first.
struct LevelFloor {
  double min_score;
  std::string_view level;
};
constexpr LevelFloor kLevelFloors[] = {
    {0.0, kLevels[0]}, {0.25, kLevels[1]}, {0.5, kLevels[2]}, {0.75, kLevels[3]}};

constexpr double kUsefulWeight = 0.75;
constexpr double kSplitWeight = 0.25;
// Useful rules at which the first term saturates: 1 + this.
constexpr double kUsefulSpan = 7.0;

}  // namespace

Difficulty RateDifficulty(int rules, int useful_rules, int64_t candidates_before_last,
                          int64_t total_numbers) {
  const double useful = std::clamp((useful_rules - 1) / kUsefulSpan, 0.0, 1.0);
  const double split =
      candidates_before_last <= 1
          ? 0.0
          : std::clamp(std::log(static_cast<double>(candidates_before_last)) /
                           std::log(static_cast<double>(total_numbers)),
                       0.0, 1.0);
  const double score = std::round((kUsefulWeight * useful + kSplitWeight * split) * 1000) / 1000;

  Difficulty d;
  for (const auto& floor : kLevelFloors) {
    if (score >= floor.min_score) d.level = floor.level;
  }
  d.score = score;
  d.details = nlohmann::json::object();
  d.details["rules"] = rules;
  d.details["useful_rules"] = useful_rules;
  return d;
}

}  // namespace foundry::puzzles::secret_number
