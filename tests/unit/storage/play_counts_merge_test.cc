// The plays merge operator: the pure merge, the operator's full and partial
// merges, and the operator inside RocksDB through flushes and compactions.
#include "storage/play_counts_merge.h"

#include <limits>

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>

#include "store_test_util.h"

namespace foundry::storage {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(PlayCountsTest, EncodingIsThreeLittleEndianU64) {
  const std::string v =
      EncodePlayCounts({0x0102030405060708ULL, 0x1112131415161718ULL, 0x2122232425262728ULL});
  ASSERT_EQ(v.size(), 24u);
  EXPECT_EQ(v, std::string("\x08\x07\x06\x05\x04\x03\x02\x01\x18\x17\x16\x15\x14\x13\x12\x11"
                           "\x28\x27\x26\x25\x24\x23\x22\x21",
                           24));
  EXPECT_EQ(DecodePlayCounts(v),
            (PlayCounts{0x0102030405060708ULL, 0x1112131415161718ULL, 0x2122232425262728ULL}));
  EXPECT_EQ(DecodePlayCounts(""), std::nullopt);
  EXPECT_EQ(DecodePlayCounts(std::string(15, '\0')), std::nullopt);
  EXPECT_EQ(DecodePlayCounts(std::string(17, '\0')), std::nullopt);
  EXPECT_EQ(DecodePlayCounts(std::string(25, '\0')), std::nullopt);
}

// Schema 1 wrote 16-byte values (no times): they still read, and merge.
TEST(PlayCountsTest, LegacySixteenByteValuesReadWithZeroTime) {
  const std::string legacy("\x02\0\0\0\0\0\0\0\x03\0\0\0\0\0\0\0", 16);
  EXPECT_EQ(DecodePlayCounts(legacy), (PlayCounts{2, 3, 0}));
  const std::string_view lv = legacy;
  EXPECT_EQ(MergePlayCounts(&lv, EncodePlayCounts({1, 0, 4500})), EncodePlayCounts({3, 3, 4500}));
}

TEST(PlayCountsTest, MergeAddsFieldwise) {
  const std::string a = EncodePlayCounts({3, 4});
  const std::string b = EncodePlayCounts({10, 1});
  const std::string_view av = a;
  EXPECT_EQ(MergePlayCounts(nullptr, b), b);
  EXPECT_EQ(MergePlayCounts(&av, b), EncodePlayCounts({13, 5}));
  const std::string_view bad = "short";
  EXPECT_EQ(MergePlayCounts(&bad, b), std::nullopt);
  EXPECT_EQ(MergePlayCounts(&av, "short"), std::nullopt);
}

TEST(PlayCountsTest, AdditionSaturates) {
  EXPECT_EQ(AddPlayCounts({kMax - 1, 5, 1}, {3, kMax, kMax}), (PlayCounts{kMax, kMax, kMax}));
  EXPECT_EQ(AddPlayCounts({kMax, 0}, {0, 0}), (PlayCounts{kMax, 0}));
  // Still associative at the edge.
  const PlayCounts x{kMax - 2, 1}, y{2, 2}, z{5, 3};
  EXPECT_EQ(AddPlayCounts(AddPlayCounts(x, y), z), AddPlayCounts(x, AddPlayCounts(y, z)));
}

class PlayCountsOperatorTest : public ::testing::Test {
 protected:
  // FullMergeV2 through the MergeOperator interface; nullopt on failure.
  std::optional<std::string> FullMerge(const std::string* existing,
                                       const std::vector<std::string>& operands) {
    const rocksdb::Slice key("sn-1");
    std::optional<rocksdb::Slice> existing_slice;
    if (existing) existing_slice.emplace(*existing);
    std::vector<rocksdb::Slice> ops(operands.begin(), operands.end());
    rocksdb::MergeOperator::MergeOperationInput in(key, existing ? &*existing_slice : nullptr, ops,
                                                   nullptr);
    std::string new_value;
    rocksdb::Slice existing_operand(nullptr, 0);
    rocksdb::MergeOperator::MergeOperationOutput out(new_value, existing_operand);
    if (!op_->FullMergeV2(in, &out)) return std::nullopt;
    if (existing_operand.data() != nullptr) return existing_operand.ToString();
    return new_value;
  }

  std::shared_ptr<rocksdb::MergeOperator> op_ = NewPlayCountsMergeOperator();
};

TEST_F(PlayCountsOperatorTest, NameIsStable) { EXPECT_STREQ(op_->Name(), "foundry.PlayCountsAdd"); }

TEST_F(PlayCountsOperatorTest, FullMerge) {
  const std::string base = EncodePlayCounts({100, 7});
  EXPECT_EQ(FullMerge(&base, {EncodePlayCounts({1, 0}), EncodePlayCounts({0, 1}),
                              EncodePlayCounts({2, 2})}),
            EncodePlayCounts({103, 10}));
  EXPECT_EQ(FullMerge(nullptr, {EncodePlayCounts({1, 0}), EncodePlayCounts({1, 0})}),
            EncodePlayCounts({2, 0}));
  EXPECT_EQ(FullMerge(nullptr, {EncodePlayCounts({1, 0}), "bad"}), std::nullopt);
  const std::string bad_base = "not sixteen bytes";
  EXPECT_EQ(FullMerge(&bad_base, {EncodePlayCounts({1, 0})}), std::nullopt);
}

TEST_F(PlayCountsOperatorTest, PartialMergeThenFullMergeEqualsFullMerge) {
  const std::string a = EncodePlayCounts({1, 2}), b = EncodePlayCounts({30, 40}),
                    c = EncodePlayCounts({500, 600});
  std::string ab;
  ASSERT_TRUE(op_->PartialMerge(rocksdb::Slice("k"), a, b, &ab, nullptr));
  EXPECT_EQ(ab, EncodePlayCounts({31, 42}));
  const std::string base = EncodePlayCounts({1000, 1000});
  EXPECT_EQ(FullMerge(&base, {ab, c}), FullMerge(&base, {a, b, c}));
  std::string out;
  EXPECT_FALSE(op_->PartialMerge(rocksdb::Slice("k"), a, "x", &out, nullptr));
}

// The operator inside a RocksDB database: merges in memtables, across a
// flush, and through a compaction that folds operands together.
TEST_F(PlayCountsOperatorTest, WorksInsideRocksDb) {
  testing::TempDir tmp;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = op_;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, tmp.Sub("db"), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  const rocksdb::WriteOptions wo;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(db->Merge(wo, "sn-1", EncodePlayCounts({1, static_cast<uint64_t>(i % 2)})).ok());
    if (i == 20) {
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
  }
  ASSERT_TRUE(db->Put(wo, "sn-2", EncodePlayCounts({7, 7})).ok());
  ASSERT_TRUE(db->Merge(wo, "sn-2", EncodePlayCounts({1, 1})).ok());
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "sn-1", &value).ok());
  EXPECT_EQ(DecodePlayCounts(value), (PlayCounts{50, 25}));
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "sn-1", &value).ok());
  EXPECT_EQ(DecodePlayCounts(value), (PlayCounts{50, 25}));
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "sn-2", &value).ok());
  EXPECT_EQ(DecodePlayCounts(value), (PlayCounts{8, 8}));
  // A malformed operand surfaces as corruption on read, not as a wrong count.
  ASSERT_TRUE(db->Merge(wo, "sn-3", "bad").ok());
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "sn-3", &value).IsCorruption());
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace foundry::storage
