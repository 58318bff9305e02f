// The records in write order (schema 5, storage/record_table.h): records
// keyed by a seq that follows the commits, ids mapped to it; the in-place
// upgrade of a store in the layout of schema 4 (the records under their
// ids), including one interrupted half-way; damaged index entries.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "live_store_fixture.h"
#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using foundry::v1::Puzzle;
using testing::MakePuzzle;

constexpr char kSn[] = "secret-number";
constexpr char kSd[] = "sudoku";

class RecordTableTest : public testing::LiveStoreTest {
 protected:
  // What the store answers: each live puzzle by id, and the ids of paged
  // scans over each index, one Sample and the level counts.
  std::vector<std::string> Answers() {
    std::vector<std::string> out;
    for (const auto& [id, p] : live_) {
      Result<Puzzle> got = store_->GetPuzzle(id);
      EXPECT_TRUE(got.ok()) << id << ": " << got.status().ToString();
      if (!got.ok()) continue;
      EXPECT_TRUE(testing::SameMessage(testing::WithoutPlays(*got), p)) << id;
      out.push_back(got->SerializeAsString());
    }
    for (const PuzzleFilter& f : {PuzzleFilter{}, PuzzleFilter(kSn, "", ""),
                                  PuzzleFilter(kSd, "hard", ""), PuzzleFilter("", "", "c-1")}) {
      for (const std::string& id : testing::ScanPaged(*store_, f, 3)) out.push_back(id);
      out.push_back("|");
    }
    Result<std::vector<Puzzle>> drawn = store_->Sample(PuzzleFilter{}, 1000, {}, 7);
    EXPECT_TRUE(drawn.ok());
    if (drawn.ok()) {
      EXPECT_EQ(drawn->size(), live_.size());
    }
    for (const auto& [group, n] : store_->LevelCounts())
      out.push_back(group.first + "/" + group.second + "=" + std::to_string(n));
    return out;
  }

  std::string Meta(const std::string& key) {
    store_.reset();
    testing::RawStore raw(Dir());
    EXPECT_TRUE(raw.status().ok());
    std::string v;
    rocksdb::Status s = raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), key, &v);
    return s.ok() ? v : "(absent)";
  }

  // The ids of the records column family, in key (seq) order.
  std::vector<std::string> RecordOrder() {
    store_.reset();
    testing::RawStore raw(Dir());
    EXPECT_TRUE(raw.status().ok());
    std::vector<std::string> ids;
    std::unique_ptr<rocksdb::Iterator> it(
        raw.db()->NewIterator(rocksdb::ReadOptions(), raw.cf(keys::kRecordsCf)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_EQ(it->key().size(), 8u);
      Puzzle p;
      EXPECT_TRUE(p.ParseFromArray(it->value().data(), static_cast<int>(it->value().size())));
      ids.push_back(p.id());
      // The id maps to this record's seq.
      std::string seq;
      EXPECT_TRUE(
          raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kPuzzlesCf), p.id(), &seq).ok());
      EXPECT_EQ(seq, it->key().ToString()) << p.id();
    }
    return ids;
  }

  // Closes the store and leaves it as a build of schema 4 wrote it.
  void MakeSchemaFour() {
    store_.reset();
    testing::MoveRecordsBackToPuzzles(Dir());
    testing::RawStore raw(Dir(), /*with_records=*/false);
    ASSERT_TRUE(raw.status().ok());
    ASSERT_TRUE(raw.db()
                    ->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", "4")
                    .ok());
  }

  void Build() {
    Add(kSn, "c-1", 0, 30);
    Add(kSd, "c-2", 0, 20);
    Rollback(kSn, "c-1", 25);
    Add(kSn, "c-1", 25, 10);
  }
};

TEST_F(RecordTableTest, RecordsAreKeyedInCommitOrder) {
  Build();
  // The rolled-back candidates came back later: their records follow.
  EXPECT_EQ(RecordOrder(), committed_);
  Reopen();  // the next seq is read back: new records still follow
  Add(kSd, "c-2", 20, 5);
  EXPECT_EQ(RecordOrder(), committed_);
}

TEST_F(RecordTableTest, UpgradesASchemaFourStoreInPlace) {
  Build();
  const std::vector<std::string> before = Answers();
  MakeSchemaFour();
  Reopen();
  EXPECT_EQ(Answers(), before);
  EXPECT_EQ(Meta("schema_version"), "5");
  EXPECT_EQ(Meta(std::string(keys::kUpgradeV5AfterKey)), "(absent)");
  // Every record moved once (in id order), each id names its own.
  EXPECT_EQ(RecordOrder().size(), live_.size());
  // The upgraded store keeps working: commits after the moved records,
  // roll-backs.
  committed_ = RecordOrder();
  Reopen();
  Add(kSd, "c-3", 0, 6);
  Rollback(kSn, "c-1", 10);
  Answers();
  EXPECT_EQ(RecordOrder(), committed_);
}

TEST_F(RecordTableTest, AnInterruptedUpgradeGoesOnAfterItsCursor) {
  Build();
  const std::vector<std::string> before = Answers();
  MakeSchemaFour();
  {
    // What a crash after the first batches leaves: version 5, the records
    // of the first ids (in id order) moved, the cursor at the last of them.
    testing::RawStore raw(Dir(), /*with_records=*/false);
    ASSERT_TRUE(raw.status().ok());
    rocksdb::ColumnFamilyHandle* records = nullptr;
    ASSERT_TRUE(raw.db()
                    ->CreateColumnFamily(rocksdb::ColumnFamilyOptions(),
                                         std::string(keys::kRecordsCf), &records)
                    .ok());
    rocksdb::WriteBatch wb;
    std::unique_ptr<rocksdb::Iterator> it(
        raw.db()->NewIterator(rocksdb::ReadOptions(), raw.cf(keys::kPuzzlesCf)));
    uint64_t seq = 0;
    std::string last;
    for (it->SeekToFirst(); it->Valid() && seq < 17; it->Next(), ++seq) {
      ASSERT_TRUE(wb.Put(records, keys::EncodeSeq(seq), it->value()).ok());
      ASSERT_TRUE(wb.Put(raw.cf(keys::kPuzzlesCf), it->key(), keys::EncodeSeq(seq)).ok());
      last = it->key().ToString();
    }
    it.reset();
    ASSERT_TRUE(wb.Put(raw.cf(keys::kDefaultCf), "schema_version", "5").ok());
    ASSERT_TRUE(wb.Put(raw.cf(keys::kDefaultCf), std::string(keys::kUpgradeV5AfterKey), last).ok());
    ASSERT_TRUE(raw.db()->Write(rocksdb::WriteOptions(), &wb).ok());
    ASSERT_TRUE(raw.db()->DestroyColumnFamilyHandle(records).ok());
  }
  Reopen();
  EXPECT_EQ(Answers(), before);
  EXPECT_EQ(Meta(std::string(keys::kUpgradeV5AfterKey)), "(absent)");
  EXPECT_EQ(RecordOrder().size(), live_.size());
}

TEST_F(RecordTableTest, ADamagedIndexEntryIsDataLossNamingThePuzzle) {
  Add(kSn, "c-1", 0, 3);
  const std::string malformed = MakePuzzle(kSn, "easy", "c-1", 0).id();
  const std::string dangling = MakePuzzle(kSn, "hard", "c-1", 1).id();
  store_.reset();
  {
    testing::RawStore raw(Dir());
    ASSERT_TRUE(raw.status().ok());
    ASSERT_TRUE(
        raw.db()->Put(rocksdb::WriteOptions(), raw.cf(keys::kPuzzlesCf), malformed, "xyz").ok());
    ASSERT_TRUE(
        raw.db()
            ->Put(rocksdb::WriteOptions(), raw.cf(keys::kPuzzlesCf), dangling, keys::EncodeSeq(999))
            .ok());
  }
  Reopen();
  Result<Puzzle> a = store_->GetPuzzle(malformed);
  EXPECT_EQ(a.status().code(), Status::Code::kDataLoss);
  EXPECT_NE(a.status().message().find(malformed + " has a malformed index entry"),
            std::string::npos)
      << a.status().message();
  Result<Puzzle> b = store_->GetPuzzle(dangling);
  EXPECT_EQ(b.status().code(), Status::Code::kDataLoss);
  EXPECT_NE(b.status().message().find(dangling + " is indexed but its record is missing"),
            std::string::npos)
      << b.status().message();
  Result<std::vector<std::optional<Puzzle>>> both = store_->GetPuzzles({malformed, dangling});
  EXPECT_EQ(both.status().code(), Status::Code::kDataLoss);
  // The third puzzle still reads.
  EXPECT_TRUE(store_->GetPuzzle(MakePuzzle(kSn, "easy", "c-1", 2).id()).ok());
}

}  // namespace
}  // namespace foundry::storage
