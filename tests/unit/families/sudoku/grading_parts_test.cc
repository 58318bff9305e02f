// The grader's parts kept apart from its techniques: the combination walk
// (combinations.h) visits exactly the combinations a brute-force walk
// keeps, in the same order, and the digit-position table (digit_positions.h)
// kept by Lose() equals one built afresh from the same candidates.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "puzzles/bit_count.h"
#include "puzzles/rng.h"
#include "puzzles/sudoku/combinations.h"
#include "puzzles/sudoku/digit_positions.h"

namespace foundry::puzzles::sudoku::grading {
namespace {

int Bits(uint32_t x) { return __builtin_popcount(x); }

// Every increasing k-combination of 0..m-1 whose masks together have at
// most k bits, in lexicographic order, by enumerating all of them.
std::vector<std::vector<int>> BruteForce(int m, int k, const uint32_t* masks) {
  std::vector<std::vector<int>> out;
  for (uint32_t set = 0; set < (1u << m); ++set) {
    if (Bits(set) != k) continue;
    std::vector<int> idx;
    uint32_t u = 0;
    for (int i = 0; i < m; ++i) {
      if (set >> i & 1) {
        idx.push_back(i);
        u |= masks[i];
      }
    }
    if (Bits(u) <= k) out.push_back(idx);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ForCombosWithin, VisitsTheCombinationsWithinKBitsInOrder) {
  Rng rng(5);
  int nonempty = 0;
  for (int t = 0; t < 3000; ++t) {
    const int m = static_cast<int>(rng.Below(10));
    const int k = 1 + static_cast<int>(rng.Below(4));
    uint32_t masks[kMaxN];
    // Two to four bits each, as a cell's candidates or a digit's places,
    // from a few more bits than k, so that some combinations fit.
    const int span = k + 2 + static_cast<int>(rng.Below(3));
    for (int i = 0; i < m; ++i) {
      uint32_t x = 0;
      const int want = std::min(span, 2 + static_cast<int>(rng.Below(3)));
      while (Bits(x) < want) x |= 1u << rng.Below(span);
      masks[i] = x;
    }
    std::vector<std::vector<int>> seen;
    const bool stopped = ForCombosWithin(m, k, masks, Bits, [&](const int* idx) {
      seen.emplace_back(idx, idx + k);
      return false;
    });
    EXPECT_FALSE(stopped);
    EXPECT_EQ(seen, BruteForce(m, k, masks)) << "m " << m << " k " << k;
    nonempty += !seen.empty();
  }
  EXPECT_GT(nonempty, 200);  // the draw makes combinations to find
}

TEST(ForCombosWithin, StopsAtTheFirstCombinationAccepted) {
  const uint32_t masks[] = {0b011, 0b110, 0b011, 0b101};
  int calls = 0;
  std::vector<int> found;
  EXPECT_TRUE(ForCombosWithin(4, 2, masks, Bits, [&](const int* idx) {
    ++calls;
    if (idx[0] == 0 && idx[1] == 2) {
      found = {idx[0], idx[1]};
      return true;
    }
    return false;
  }));
  EXPECT_EQ(found, (std::vector<int>{0, 2}));
  EXPECT_EQ(calls, 1);  // {0, 1} has three bits and is never offered
}

TEST(DigitPositions, KeptTableEqualsAFreshOne) {
  using Positions = DigitPositions<3, 3>;
  const auto& g = Positions::Geo::Get();
  Rng rng(9);
  for (int t = 0; t < 200; ++t) {
    uint16_t cand[81];
    for (uint16_t& c : cand) c = static_cast<uint16_t>(rng.Below(512));
    Positions kept;
    if (t % 2) kept.Get(g, cand);  // built first, so Lose() must keep it
    for (int step = 0; step < 120; ++step) {
      const int c = static_cast<int>(rng.Below(81));
      const auto lost = static_cast<uint16_t>(cand[c] & rng.Below(512));
      kept.Lose(g, c, lost);
      cand[c] = static_cast<uint16_t>(cand[c] & ~lost);
    }
    Positions fresh;
    const auto& a = kept.Get(g, cand);
    const auto& b = fresh.Get(g, cand);
    for (int u = 0; u < 27; ++u) {
      for (int d = 0; d < 9; ++d) ASSERT_EQ(a[u][d], b[u][d]) << "unit " << u << " digit " << d;
    }
  }
}

}  // namespace
}  // namespace foundry::puzzles::sudoku::grading
