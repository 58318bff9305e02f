#include "common/secure_random.h"

#include <cctype>
#include <set>

#include <gtest/gtest.h>

namespace foundry {
namespace {

TEST(SecureRandomTest, HexHasTwoDigitsAByteAndDiffersEachTime) {
  EXPECT_EQ(SecureRandomHex(0), "");
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string h = SecureRandomHex(16);
    ASSERT_EQ(h.size(), 32u);
    for (char c : h) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c)) && !std::isupper(c));
    seen.insert(h);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(SecureRandomTest, BelowStaysInRangeAndReachesEveryValue) {
  SecureRandom r;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(r.Below(1), 0u);
  int counts[3] = {};
  for (int i = 0; i < 3000; ++i) {
    const uint64_t v = r.Below(3);
    ASSERT_LT(v, 3u);
    ++counts[v];
  }
  // Each near 1000; a fair draw falls outside 800..1200 with odds far below
  // one in a billion.
  for (int c : counts) EXPECT_TRUE(c > 800 && c < 1200) << c;
  const uint64_t big = (1ULL << 63) + 5;  // the rejection matters here
  for (int i = 0; i < 100; ++i) EXPECT_LT(r.Below(big), big);
}

TEST(SecureRandomTest, SixtyFourBitsVary) {
  uint64_t any = 0, all = ~0ULL;
  for (int i = 0; i < 64; ++i) {
    const uint64_t v = SecureRandom64();
    any |= v;
    all &= v;
  }
  EXPECT_EQ(any, ~0ULL);  // every bit was 1 at least once
  EXPECT_EQ(all, 0ULL);   // and 0 at least once
}

}  // namespace
}  // namespace foundry
