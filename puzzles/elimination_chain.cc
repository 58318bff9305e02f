#include "puzzles/elimination_chain.h"

#include <algorithm>

namespace foundry::puzzles {
namespace {

constexpr int kBucketClues = 12;

}  // namespace

std::vector<std::pair<uint32_t, int64_t>> GroupMasks(std::span<const uint32_t> masks, int clues) {
  std::vector<std::pair<uint32_t, int64_t>> groups;
  if (clues <= kBucketClues) {
    std::vector<int64_t> count(size_t{1} << clues, 0);
    for (uint32_t m : masks) ++count[m];
    for (uint32_t m = 0; m < count.size(); ++m) {
      if (count[m] > 0) groups.push_back({m, count[m]});
    }
    return groups;
  }
  std::vector<uint32_t> sorted(masks.begin(), masks.end());
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t m : sorted) {
    if (!groups.empty() && groups.back().first == m) {
      ++groups.back().second;
    } else {
      groups.push_back({m, 1});
    }
  }
  return groups;
}

}  // namespace foundry::puzzles
