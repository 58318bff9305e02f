// The clue's meaning, restated from docs/families/zebra.md apart from the
// family's own Holds() (model.h): the brute force of zebra_test.cc and the
// effort measure of bench/effort/zebra.cc check puzzles by it, independently.
#pragma once

#include <vector>

#include "puzzles/zebra/codec.h"

namespace foundry::puzzles::zebra {

// Whether clue `c` holds when item i lives in house[i] (every item placed).
inline bool RestatedHolds(const Clue& c, const std::vector<int>& house) {
  const int a = house[c.a], b = house[c.b];
  switch (c.type) {
    case ClueType::kPosition:
      return a == c.house;
    case ClueType::kNotPosition:
      return a != c.house;
    case ClueType::kSame:
      return a == b;
    case ClueType::kNotSame:
      return a != b;
    case ClueType::kLeftOf:
      return a < b;
    case ClueType::kImmediatelyLeftOf:
      return b == a + 1;
    case ClueType::kNextTo:
      return a == b + 1 || b == a + 1;
  }
  return false;
}

}  // namespace foundry::puzzles::zebra
