// The four difficulty levels every family grades into, and the score table
// that maps a family's score in [0, 1] to them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace foundry::puzzles {

// Difficulty levels, easiest first. The names are part of the export format.
inline constexpr std::string_view kLevels[] = {"easy", "medium", "hard", "expert"};

// True for one of kLevels.
bool IsLevel(std::string_view level);

// A family's one table of levels: the least score of each of kLevels,
// easiest first (the first is 0).
using LevelFloors = std::array<double, 4>;

// Equal quarters of the score range: every family grades into it, so a
// puzzle of level L has a score in [floor L, floor L+1] (the conformance
// suite checks it; a score rounded to three places may touch the next
// floor). The store applies it to observed scores, and a campaign's goal
// of a level and a score range that miss each other is refused (goal.h).
inline constexpr LevelFloors kQuartileFloors = {0.0, 0.25, 0.5, 0.75};

// The scores a puzzle of level `level` (an index into kLevels) may have
// under kQuartileFloors, both ends included.
struct ScoreRange {
  double lo, hi;
};
constexpr ScoreRange LevelScores(size_t level) {
  return {kQuartileFloors[level],
          level + 1 < kQuartileFloors.size() ? kQuartileFloors[level + 1] : 1.0};
}

// The hardest level whose floor `score` reaches.
std::string_view LevelForScore(double score, const LevelFloors& floors);

}  // namespace foundry::puzzles
