// Key layouts and page tokens (storage/keys.h).
#include "storage/keys.h"

#include <gtest/gtest.h>

namespace foundry::storage::keys {
namespace {

using std::string_literals::operator""s;

TEST(KeysTest, ColumnFamilyNamesAreTheOnDiskOnes) {
  EXPECT_EQ(kAllCfs.size(), 10u);
  EXPECT_EQ(kAllCfs[0], "default");
  EXPECT_EQ(kAllCfs[1], "puzzles");
  EXPECT_EQ(kAllCfs[2], "by_family");
  EXPECT_EQ(kAllCfs[3], "campaigns");
  EXPECT_EQ(kAllCfs[4], "campaign_members");
  EXPECT_EQ(kAllCfs[5], "plays");
  EXPECT_EQ(kAllCfs[6], "by_score");
  EXPECT_EQ(kAllCfs[7], "by_created");
  EXPECT_EQ(kAllCfs[8], "by_draw");
  EXPECT_EQ(kAllCfs[9], "records");
  EXPECT_EQ(kSchemaVersionKey, "schema_version");
}

TEST(KeysTest, SchemaVersionIsDecimal) {
  EXPECT_EQ(EncodeSchemaVersion(1), "1");
  EXPECT_EQ(DecodeSchemaVersion("1"), 1);
  EXPECT_EQ(DecodeSchemaVersion("99"), 99);
  EXPECT_EQ(DecodeSchemaVersion("0"), 0);
  for (const char* bad : {"", "01", "-1", "+1", "1 ", "one", "1x", "12345678901"}) {
    EXPECT_EQ(DecodeSchemaVersion(bad), std::nullopt) << bad;
  }
}

TEST(KeysTest, FamilyPrefixIsTheStartOfEveryByScoreKeyOfTheFamily) {
  EXPECT_EQ(FamilyPrefix("sudoku"), "sudoku\0"s);
  EXPECT_EQ(ByScoreKey("sudoku", 0.5, "sd-1").rfind(FamilyPrefix("sudoku"), 0), 0u);
  // A prefix never matches a longer family name.
  EXPECT_NE(ByScoreKey("sudoku2", 0.5, "a").rfind(FamilyPrefix("sudoku"), 0), 0u);
}

TEST(KeysTest, CampaignMembersSortByIndex) {
  EXPECT_EQ(CampaignMemberKey("c-1", 0x0102030405060708ULL),
            "c-1\0\x01\x02\x03\x04\x05\x06\x07\x08"s);
  EXPECT_EQ(CampaignMemberPrefix("c-1"), "c-1\0"s);
  uint64_t previous = 0;
  std::string previous_key = CampaignMemberKey("c-1", 0);
  for (uint64_t index : {1ULL, 255ULL, 256ULL, 65535ULL, 1ULL << 32, ~0ULL}) {
    const std::string key = CampaignMemberKey("c-1", index);
    EXPECT_LT(previous_key, key) << previous << " vs " << index;
    EXPECT_EQ(ParseCampaignMemberIndex(key), index);
    previous = index;
    previous_key = key;
  }
  EXPECT_FALSE(ParseCampaignMemberIndex("c-1"));
  EXPECT_FALSE(ParseCampaignMemberIndex("c-1x12345678"));
}

TEST(KeysTest, KeyComponentsRejectNul) {
  EXPECT_TRUE(IsValidKeyComponent("secret-number"));
  EXPECT_TRUE(IsValidKeyComponent(""));
  EXPECT_FALSE(IsValidKeyComponent("a\0b"s));
}

TEST(KeysTest, PageTokensRoundTrip) {
  const std::string key = ByScoreKey("sudoku", 0.5, "sd-\xff\x01");
  const std::string token = EncodePageToken(ScanIndex::kByScore, key);
  EXPECT_EQ(token.substr(0, 2), "73");  // 's'
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
  auto decoded = DecodePageToken(token);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->index, ScanIndex::kByScore);
  EXPECT_EQ(decoded->key, key);
  for (ScanIndex index :
       {ScanIndex::kPuzzles, ScanIndex::kCampaignMembers, ScanIndex::kByCreated}) {
    auto d = DecodePageToken(EncodePageToken(index, "k"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, index);
    EXPECT_EQ(d->key, "k");
  }
  // A schema 2 token of the retired by_family index ('f') is refused.
  EXPECT_FALSE(
      DecodePageToken("66"
                      "73756400"));
}

TEST(KeysTest, BadPageTokensDoNotDecode) {
  for (const char* bad : {"", "7", "70", "706", "7g6b", "706B", "786b", "00aa", " 706b"}) {
    EXPECT_FALSE(DecodePageToken(bad)) << bad;
  }
}

}  // namespace
}  // namespace foundry::storage::keys
