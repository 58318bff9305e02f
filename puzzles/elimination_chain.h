// The greedy elimination chain that balance and bulls-cows grade by: a
// person applies the clue that rules out the most hypotheses, then the next,
// and the sizes of what is left after each step measure the work.
//
// A hypothesis is summed up by a mask: bit c set when clue c rules it out.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace foundry::puzzles {

// Equal masks counted once: (mask, how many hypotheses have it). `clues` is
// the number of clues (bits); with few, buckets are used instead of a sort.
std::vector<std::pair<uint32_t, int64_t>> GroupMasks(std::span<const uint32_t> masks, int clues);

// The hypotheses left after each step of the greedy chain over `groups`:
// at each step the clue not yet applied that leaves the fewest, ties broken
// by the smaller key. One entry per clue, in the order applied.
// REQUIRES: keys.size() clues, at most 32.
template <typename Key>
std::vector<int64_t> GreedyChain(const std::vector<std::pair<uint32_t, int64_t>>& groups,
                                 std::span<const Key> keys) {
  const int clues = static_cast<int>(keys.size());
  std::vector<int64_t> left_after;
  uint32_t applied = 0;
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
    left_after.push_back(best_left);
  }
  return left_after;
}

}  // namespace foundry::puzzles
