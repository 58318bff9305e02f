#include "puzzles/levels.h"

#include <algorithm>
#include <iterator>

namespace foundry::puzzles {

bool IsLevel(std::string_view level) {
  return std::find(std::begin(kLevels), std::end(kLevels), level) != std::end(kLevels);
}

std::string_view LevelForScore(double score, const LevelFloors& floors) {
  std::string_view level = kLevels[0];
  for (size_t i = 0; i < floors.size(); ++i) {
    if (score >= floors[i]) level = kLevels[i];
  }
  return level;
}

}  // namespace foundry::puzzles
