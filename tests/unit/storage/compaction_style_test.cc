// Compaction style is an option of a column family, not of its files: the
// store's random-key column families (`puzzles`, `by_score`, `by_draw`) use
// universal compaction, and stores written by earlier builds were levelled
// throughout. A store compacted in either style must open, read and grow in
// the other, so that an upgrade and a roll-back both keep every puzzle.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include "storage/rocks_options.h"
#include "store_fixture.h"

namespace foundry::storage {
namespace {

enum class Style { kAsThisBuild, kLevelled };

// Opens the closed store at `dir` as a build with `style` would, flushes
// every column family and compacts each whole, so that its files are laid
// out by that style; then checks that level 0 is empty in each (the
// compaction ran); RawStore closes it.
void CompactEveryColumnFamily(const std::string& dir, Style style) {
  const StoreOptions options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = StoreColumnFamilies(options);
  if (style == Style::kLevelled) {
    for (rocksdb::ColumnFamilyDescriptor& d : cfs) {
      d.options.compaction_style = rocksdb::kCompactionStyleLevel;
    }
  }
  RawStore raw(dir, StoreDbOptions(/*create=*/false, options), cfs);
  ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
  rocksdb::CompactRangeOptions full;
  full.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (rocksdb::ColumnFamilyHandle* h : raw.handles()) {
    EXPECT_TRUE(raw.db()->Flush(rocksdb::FlushOptions(), h).ok()) << h->GetName();
    const rocksdb::Status s = raw.db()->CompactRange(full, h, nullptr, nullptr);
    EXPECT_TRUE(s.ok()) << h->GetName() << ": " << s.ToString();
    std::string files;
    ASSERT_TRUE(raw.db()->GetProperty(h, "rocksdb.num-files-at-level0", &files));
    EXPECT_EQ(files, "0") << h->GetName();
  }
}

class CompactionStyleTest : public StoreTest {
 protected:
  // Commits `n` secret-number puzzles from index `first` through the store.
  void Commit(uint64_t first, int n) {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    const CommitBatch b = Batch(kSn, "c-1", first, n);
    ASSERT_TRUE(store->Commit(b).ok());
    for (const foundry::v1::Puzzle& p : b.puzzles) ids_.push_back(p.id());
  }

  // Every committed puzzle reads back by id, by the score index (Scan with a
  // score range) and by the drawing index (Sample of everything).
  void ExpectEveryPuzzle() {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    for (const std::string& id : ids_) {
      Result<foundry::v1::Puzzle> p = store->GetPuzzle(id);
      ASSERT_TRUE(p.ok()) << id << ": " << p.status().ToString();
      EXPECT_EQ(p->id(), id);
    }
    EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, ids_.size()}}));
    PuzzleFilter by_score(kSn, "", "");
    by_score.score = std::make_pair(0.0, 1.0);
    Result<testing::ScanResult> scanned = ScanAll(*store, by_score);
    ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
    EXPECT_EQ(scanned->puzzles.size(), ids_.size());
    Result<std::vector<foundry::v1::Puzzle>> drawn =
        store->Sample(PuzzleFilter(kSn, "", ""), ids_.size() + 1, {}, 0);
    ASSERT_TRUE(drawn.ok()) << drawn.status().ToString();
    std::vector<std::string> got = Ids(*drawn), want = ids_;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
  }

  std::vector<std::string> ids_;
};

INSTANTIATE_TEST_SUITE_P(SyncWrites, CompactionStyleTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Sync" : "NoSync"; });

TEST_P(CompactionStyleTest, AStoreCompactedInEitherStyleOpensReadsAndGrowsInTheOther) {
  Commit(0, 300);
  CompactEveryColumnFamily(DbDir(), Style::kAsThisBuild);
  // A levelled build (a roll-back) over this build's files.
  CompactEveryColumnFamily(DbDir(), Style::kLevelled);
  ExpectEveryPuzzle();
  // This build over levelled files (an upgrade): it reads, writes and
  // compacts them.
  Commit(300, 300);
  CompactEveryColumnFamily(DbDir(), Style::kAsThisBuild);
  ExpectEveryPuzzle();
  Commit(600, 100);
  CompactEveryColumnFamily(DbDir(), Style::kLevelled);
  ExpectEveryPuzzle();
}

}  // namespace
}  // namespace foundry::storage
