// Lease ids are the credential of a submission and a heartbeat: one worker's
// ids must tell nothing of another's.
#include "coordinator/lease_table.h"

#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "puzzles/rng.h"

namespace foundry::coordinator {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// SplitMix64 undone: its xor-shifts and odd multiplications are each
// invertible, so an id built as SplitMix64(secret ^ counter) gives the
// secret away.
uint64_t UnSplitMix64(uint64_t z) {
  z = z ^ z >> 31 ^ z >> 62;
  z *= 0x319642b2d24d8ec3ULL;  // inverse of 0x94d049bb133111eb mod 2^64
  z = z ^ z >> 27 ^ z >> 54;
  z *= 0x96de1b173f119089ULL;  // inverse of 0xbf58476d1ce4e5b9 mod 2^64
  z = z ^ z >> 30 ^ z >> 60;
  return z - kGolden;
}

TEST(LeaseTableTest, TheInverseUsedBelowIsRight) {
  for (uint64_t x : {0ULL, 1ULL, 42ULL, ~0ULL, 0x123456789abcdefULL}) {
    EXPECT_EQ(UnSplitMix64(puzzles::SplitMix64(x)), x) << x;
  }
}

// The part of an id after its counter ("l-7-<hex>" -> "<hex>").
std::string RandomPart(const std::string& id) {
  const size_t dash = id.find('-', 2);
  return dash == std::string::npos ? "" : id.substr(dash + 1);
}

TEST(LeaseTableTest, AnIdSaysNothingOfTheNext) {
  LeaseTable table;
  const auto deadline = Clock::now() + std::chrono::minutes(1);
  const std::string first = table.Grant("c-1", 0, "liar", deadline).lease_id;
  const std::string second = table.Grant("c-1", 1, "honest", deadline).lease_id;
  ASSERT_EQ(first.rfind("l-1-", 0), 0u) << first;
  ASSERT_EQ(second.rfind("l-2-", 0), 0u) << second;
  const std::string a = RandomPart(first), b = RandomPart(second);
  EXPECT_EQ(a.size(), 32u) << "128 random bits: " << first;
  EXPECT_EQ(b.size(), 32u) << second;
  ASSERT_GE(a.size(), 16u);
  ASSERT_GE(b.size(), 16u);

  // The attack on ids that mix a counter into one secret with SplitMix64:
  // undo the first id's mix, redo it with the next counter.
  const uint64_t seen = std::stoull(a.substr(a.size() - 16), nullptr, 16);
  const uint64_t secret = UnSplitMix64(seen) ^ (1 * kGolden);
  const std::string guess = fmt::format("{:016x}", puzzles::SplitMix64(secret ^ (2 * kGolden)));
  EXPECT_NE(b.substr(b.size() - 16), guess) << "the liar predicted " << second;
}

TEST(LeaseTableTest, IdsAreUniqueAndTheirRandomPartsDiffer) {
  LeaseTable table;
  const auto deadline = Clock::now() + std::chrono::minutes(1);
  std::set<std::string> ids, parts;
  for (uint64_t seq = 0; seq < 1000; ++seq) {
    const std::string id = table.Grant("c-1", seq, "w", deadline).lease_id;
    ids.insert(id);
    parts.insert(RandomPart(id));
  }
  EXPECT_EQ(ids.size(), 1000u);
  EXPECT_EQ(parts.size(), 1000u);
}

}  // namespace
}  // namespace foundry::coordinator
