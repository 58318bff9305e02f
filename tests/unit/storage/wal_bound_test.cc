// The write-ahead log stays bounded (StoreOptions::max_wal_bytes) while a
// campaign commits, and nothing committed is lost by the flushes the bound
// forces.
#include <filesystem>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::TempDir;

constexpr uint64_t kMiB = 1u << 20;

// Bytes in the store's write-ahead log files (*.log; the diagnostic log is
// LOG, without the extension).
uint64_t WalBytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") total += entry.file_size();
  }
  return total;
}

// Commits one batch of 100 puzzles of ~2 KB each (~200 KB), numbered from
// `first`, with its campaign record, as a campaign does.
void CommitBatchOf100(Store& store, uint64_t first) {
  const std::string padding(2000, 'x');
  CommitBatch batch;
  for (uint64_t i = 0; i < 100; ++i) {
    foundry::v1::Puzzle p = MakePuzzle("sudoku", "easy", "c-wal", first + i);
    p.set_puzzle_json("{\"pad\":\"" + padding + "\"}");
    batch.puzzles.push_back(std::move(p));
  }
  batch.campaign = MakeCampaign("c-wal", "sudoku", first + 100);
  Status s = store.Commit(batch);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

struct CampaignEnd {
  uint64_t wal_bytes = 0;  // WAL size after the last commit
  uint64_t committed = 0;  // puzzles committed
};

// Commits `batches` batches. With `settle_below`, the campaign then goes on
// committing one batch every 0.5 s (at most 20) until the WAL is below that.
// RocksDB enforces max_total_wal_size on the write path and skips the check
// while the oldest log is still being flushed, so after a burst the logs can
// stand a few MiB over the bound until the next write: that write, not the
// passage of time, is what brings them back.
CampaignEnd CommitCampaign(Store& store, const std::filesystem::path& dir, int batches,
                           uint64_t settle_below) {
  CampaignEnd end;
  for (int b = 0; b < batches; ++b) {
    CommitBatchOf100(store, end.committed);
    end.committed += 100;
  }
  for (int i = 0; i < 20 && settle_below > 0 && WalBytes(dir) >= settle_below; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CommitBatchOf100(store, end.committed);
    end.committed += 100;
  }
  end.wal_bytes = WalBytes(dir);
  return end;
}

TEST(WalBoundTest, LogsStayNearTheBoundAndEveryCommitSurvives) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  StoreOptions options;
  options.max_wal_bytes = 1 * kMiB;
  CampaignEnd end;
  {
    auto store = Store::Open(dir, options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    // ~12 MB written; a 64 MiB memtable would hold it all, so only the
    // bound makes RocksDB flush and drop logs.
    end = CommitCampaign(**store, dir, 60, 3 * kMiB);
    EXPECT_LT(end.wal_bytes, 3 * kMiB) << "the logs outgrew the 1 MiB bound";
  }
  auto store = Store::Open(dir, options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->PuzzleCounts().at("sudoku"), end.committed);
  auto campaigns = (*store)->LoadCampaigns();
  ASSERT_TRUE(campaigns.ok());
  ASSERT_EQ(campaigns->size(), 1u);
  EXPECT_EQ((*campaigns)[0].next_index(), end.committed);
  auto last = (*store)->GetPuzzle(MakePuzzle("sudoku", "easy", "c-wal", end.committed - 1).id());
  EXPECT_TRUE(last.ok()) << last.status().ToString();
}

// The contrast that makes the test above mean something: with RocksDB's own
// bound (0) the same commits leave all of their ~12 MB in the logs.
TEST(WalBoundTest, WithoutTheBoundTheLogsKeepEverything) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  StoreOptions options;
  options.max_wal_bytes = 0;
  auto store = Store::Open(dir, options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_GT(CommitCampaign(**store, dir, 60, 0).wal_bytes, 10 * kMiB);
}

// A clean close flushes every column family, so the next open replays
// nothing: the logs left behind are empty and every commit is in a table
// file. The flushes are queued together and waited for (~RocksStore); a close
// that did not wait would leave the queued ones' writes in the logs.
TEST(WalBoundTest, AClosedStoreLeavesItsLogsEmpty) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  StoreOptions options;
  options.max_wal_bytes = 0;  // nothing flushed before the close
  uint64_t committed = 0;
  {
    auto store = Store::Open(dir, options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    committed = CommitCampaign(**store, dir, 60, 0).committed;
    ASSERT_GT(WalBytes(dir), 10 * kMiB);
  }
  EXPECT_EQ(WalBytes(dir), 0u);
  auto store = Store::Open(dir, options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->PuzzleCounts().at("sudoku"), committed);
  auto last = (*store)->GetPuzzle(MakePuzzle("sudoku", "easy", "c-wal", committed - 1).id());
  EXPECT_TRUE(last.ok()) << last.status().ToString();
}

// StartFlush writes the memtables out in the background: with no bound on
// the logs (nothing else would flush), the ~12 MB a campaign committed
// leave the logs without a close, and commits made meanwhile and after are
// all kept.
TEST(WalBoundTest, StartFlushEmptiesTheLogsWithoutAClose) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  StoreOptions options;
  options.max_wal_bytes = 0;
  uint64_t committed = 0;
  {
    auto store = Store::Open(dir, options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    committed = CommitCampaign(**store, dir, 60, 0).committed;
    ASSERT_GT(WalBytes(dir), 10 * kMiB);
    (*store)->StartFlush();
    CommitBatchOf100(**store, committed);  // a commit while the flush runs
    committed += 100;
    for (int i = 0; i < 200 && WalBytes(dir) >= kMiB; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_LT(WalBytes(dir), kMiB) << "the logs still hold the flushed commits";
    CommitBatchOf100(**store, committed);
    committed += 100;
  }
  auto store = Store::Open(dir, options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->PuzzleCounts().at("sudoku"), committed);
  auto last = (*store)->GetPuzzle(MakePuzzle("sudoku", "easy", "c-wal", committed - 1).id());
  EXPECT_TRUE(last.ok()) << last.status().ToString();
}

}  // namespace
}  // namespace foundry::storage
