// KeyOrderedBatch (storage/key_ordered_batch.h): a commit's puts reach the
// WriteBatch grouped by column family, each group in key order, and all of
// them land in the database.
#include "storage/key_ordered_batch.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "tests/unit/storage/store_test_util.h"

namespace foundry::storage {
namespace {

// Records the (column family id, key, value) of each put, in batch order.
struct PutRecorder : rocksdb::WriteBatch::Handler {
  struct Put {
    uint32_t cf;
    std::string key;
    std::string value;
  };
  std::vector<Put> puts;
  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key,
                        const rocksdb::Slice& value) override {
    puts.push_back({cf, key.ToString(), value.ToString()});
    return rocksdb::Status::OK();
  }
};

class KeyOrderedBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
        {rocksdb::kDefaultColumnFamilyName, {}}, {"a", {}}, {"b", {}}};
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir_.path().string(), cfs, &handles_, &db).ok());
    db_.reset(db);
  }
  void TearDown() override {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  }

  testing::TempDir dir_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

TEST_F(KeyOrderedBatchTest, PutsAreGroupedByColumnFamilyAndInKeyOrder) {
  // Keys as a commit makes them: hashes in no order, interleaved across
  // column families, with bytes above 0x7f (the order is bytewise unsigned).
  std::vector<std::pair<rocksdb::ColumnFamilyHandle*, std::string>> puts;
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::string key = "k" + std::to_string(rng() % 100000);
    key.push_back(static_cast<char>(rng() % 256));
    puts.emplace_back(handles_[1 + i % 2], key + "-" + std::to_string(i));
  }
  KeyOrderedBatch batch;
  for (const auto& [cf, key] : puts) batch.Put(cf, key, "v:" + key);
  rocksdb::WriteBatch wb;
  ASSERT_TRUE(batch.WriteTo(&wb).ok());
  PutRecorder seen;
  ASSERT_TRUE(wb.Iterate(&seen).ok());

  ASSERT_EQ(seen.puts.size(), puts.size());
  for (size_t i = 1; i < seen.puts.size(); ++i) {
    const auto& prev = seen.puts[i - 1];
    const auto& cur = seen.puts[i];
    ASSERT_LE(prev.cf, cur.cf) << "column families interleave at put " << i;
    if (prev.cf == cur.cf) {
      ASSERT_LT(rocksdb::Slice(prev.key).compare(cur.key), 0) << "keys out of order at put " << i;
    }
  }
  for (const auto& p : seen.puts) EXPECT_EQ(p.value, "v:" + p.key);
}

TEST_F(KeyOrderedBatchTest, EveryPutLandsInItsColumnFamily) {
  KeyOrderedBatch batch;
  batch.Put(handles_[2], "zeta", "1");
  batch.Put(handles_[1], "zeta", "2");
  batch.Put(handles_[1], "alpha", "3");
  batch.Put(handles_[2], "", "4");
  rocksdb::WriteBatch wb;
  ASSERT_TRUE(batch.WriteTo(&wb).ok());
  ASSERT_TRUE(db_->Write(rocksdb::WriteOptions(), &wb).ok());
  const std::vector<std::tuple<int, std::string, std::string>> want = {
      {2, "zeta", "1"}, {1, "zeta", "2"}, {1, "alpha", "3"}, {2, "", "4"}};
  for (const auto& [cf, key, value] : want) {
    std::string got;
    ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), handles_[cf], key, &got).ok()) << key;
    EXPECT_EQ(got, value) << key;
  }
  std::string absent;
  EXPECT_TRUE(db_->Get(rocksdb::ReadOptions(), handles_[2], "alpha", &absent).IsNotFound());
}

}  // namespace
}  // namespace foundry::storage
