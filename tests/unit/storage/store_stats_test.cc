// Store::Stats(): RocksDB figures and the per-level counts for metrics.
#include <gtest/gtest.h>

#include "storage/rocks_store.h"
#include "tests/unit/storage/store_test_util.h"

namespace foundry::storage::testing {
namespace {

TEST(StoreStatsTest, EmptyStoreHasEngineFiguresAndNoLevels) {
  TempDir dir;
  auto store = Store::Open(dir.Sub("db"), StoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  StoreStats st = (*store)->Stats(/*count_levels=*/true);
  EXPECT_EQ(st.block_cache_capacity_bytes, 64.0 * (1 << 20));  // the default
  EXPECT_FALSE(st.write_stopped);
  EXPECT_EQ(st.write_stall_seconds, 0);
  EXPECT_TRUE(st.has_level_counts);
  EXPECT_TRUE(st.puzzles_by_level.empty());
}

TEST(StoreStatsTest, BlockCacheHasTheAskedCapacity) {
  TempDir dir;
  StoreOptions options;
  options.block_cache_bytes = 24u << 20;
  auto store = Store::Open(dir.Sub("db"), options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->Stats(/*count_levels=*/false).block_cache_capacity_bytes, 24.0 * (1 << 20));
}

TEST(StoreStatsTest, CountsPuzzlesPerFamilyAndLevel) {
  TempDir dir;
  auto store = Store::Open(dir.Sub("db"), StoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  CommitBatch batch;
  batch.campaign = MakeCampaign("c-1", "secret-number", 0);
  const char* levels[] = {"easy", "hard", "hard", "expert", "hard"};
  for (uint64_t i = 0; i < 5; ++i) {
    batch.puzzles.push_back(MakePuzzle("secret-number", levels[i], "c-1", i));
  }
  ASSERT_TRUE((*store)->Commit(batch).ok());
  CommitBatch other;
  other.campaign = MakeCampaign("c-2", "sudoku", 0);
  other.puzzles.push_back(MakePuzzle("sudoku", "easy", "c-2", 0));
  ASSERT_TRUE((*store)->Commit(other).ok());

  StoreStats st = (*store)->Stats(/*count_levels=*/true);
  ASSERT_TRUE(st.has_level_counts);
  const std::map<std::pair<std::string, std::string>, uint64_t> want = {
      {{"secret-number", "easy"}, 1},
      {{"secret-number", "expert"}, 1},
      {{"secret-number", "hard"}, 3},
      {{"sudoku", "easy"}, 1}};
  EXPECT_EQ(st.puzzles_by_level, want);
  EXPECT_GT(st.memtable_bytes, 0);

  // Without count_levels the engine figures come alone.
  StoreStats quick = (*store)->Stats(/*count_levels=*/false);
  EXPECT_FALSE(quick.has_level_counts);
  EXPECT_TRUE(quick.puzzles_by_level.empty());
  EXPECT_GT(quick.memtable_bytes, 0);
}

TEST(StoreStatsTest, BlockCacheTickersMoveWithReadsFromSstFiles) {
  TempDir dir;
  {
    auto store = Store::Open(dir.Sub("db"), StoreOptions{});
    ASSERT_TRUE(store.ok());
    CommitBatch batch;
    batch.campaign = MakeCampaign("c-1", "secret-number", 0);
    for (uint64_t i = 0; i < 50; ++i)
      batch.puzzles.push_back(MakePuzzle("secret-number", "easy", "c-1", i));
    ASSERT_TRUE((*store)->Commit(batch).ok());
  }
  // Reopened: the WAL is replayed and flushed into SST files, so reads go
  // through the block cache.
  auto store = Store::Open(dir.Sub("db"), StoreOptions{});
  ASSERT_TRUE(store.ok());
  for (uint64_t i = 0; i < 50; ++i) {
    ASSERT_TRUE((*store)->GetPuzzle(MakeId("secret-number", "c-1", i)).ok());
  }
  StoreStats st = (*store)->Stats(false);
  EXPECT_GT(st.sst_files_bytes, 0);
  EXPECT_GT(st.block_cache_hits + st.block_cache_misses, 0u);
  EXPECT_GT(st.block_cache_usage_bytes, 0);
}

}  // namespace
}  // namespace foundry::storage::testing
