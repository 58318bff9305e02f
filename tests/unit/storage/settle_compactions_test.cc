// A store hands itself over settled (Store::SettleCompactions): it waits
// while a compaction is owed, gives up at its limit or when told to stop,
// and returns once the compactions are done.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include "storage/store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::TempDir;

// Holds every thread of the default Env's low-priority pool, where the
// store's compactions run, until released: compactions stay owed meanwhile.
class CompactionPoolHold {
 public:
  CompactionPoolHold() {
    rocksdb::Env* env = rocksdb::Env::Default();
    threads_ = env->GetBackgroundThreads(rocksdb::Env::Priority::LOW);
    for (int i = 0; i < threads_; ++i) env->Schedule(&Block, this, rocksdb::Env::Priority::LOW);
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return held_ == threads_; });
  }
  ~CompactionPoolHold() { Release(); }
  void Release() {
    std::unique_lock<std::mutex> lock(mu_);
    released_ = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return held_ == 0; });
  }

 private:
  static void Block(void* arg) {
    auto* self = static_cast<CompactionPoolHold*>(arg);
    std::unique_lock<std::mutex> lock(self->mu_);
    ++self->held_;
    self->cv_.notify_all();
    self->cv_.wait(lock, [&] { return self->released_; });
    --self->held_;
    self->cv_.notify_all();
  }

  int threads_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  int held_ = 0;
  bool released_ = false;
};

// Commits 100 puzzles numbered from `first` and writes them to a new table
// file of every column family they touch.
void CommitAndFlush(Store& store, uint64_t first) {
  CommitBatch batch;
  for (uint64_t i = 0; i < 100; ++i)
    batch.puzzles.push_back(MakePuzzle("sudoku", "easy", "c", first + i));
  batch.campaign = MakeCampaign("c", "sudoku", first + 100);
  Status s = store.Commit(batch);
  ASSERT_TRUE(s.ok()) << s.ToString();
  store.StartFlush();
  for (int i = 0; i < 500; ++i) {  // the flush runs beside the held pool
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (store.Stats(false).running_flushes == 0) return;
  }
  FAIL() << "the flush did not finish";
}

TEST(SettleCompactionsTest, WaitsForOwedCompactionsAndStopsWhenTold) {
  TempDir tmp;
  auto store = Store::Open(tmp.Sub("db"), StoreOptions());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  const std::atomic<bool> go_on{false};
  EXPECT_TRUE((*store)->SettleCompactions(std::chrono::milliseconds(0), go_on))
      << "a new store owes nothing";

  CompactionPoolHold hold;
  // Six table files in each levelled column family: past its trigger of 4.
  for (uint64_t round = 0; round < 6; ++round) CommitAndFlush(**store, round * 100);
  EXPECT_FALSE((*store)->SettleCompactions(std::chrono::milliseconds(300), go_on))
      << "the compactions cannot run, so the store cannot be settled";
  const std::atomic<bool> stop{true};
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_FALSE((*store)->SettleCompactions(std::chrono::seconds(60), stop));
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5))
      << "a stop is not waited out";

  hold.Release();
  EXPECT_TRUE((*store)->SettleCompactions(std::chrono::seconds(60), go_on));
  EXPECT_EQ((*store)->Stats(false).running_compactions, 0);
  EXPECT_TRUE((*store)->SettleCompactions(std::chrono::milliseconds(0), go_on))
      << "settled is settled";
  EXPECT_EQ((*store)->PuzzleCounts().at("sudoku"), 600u);
}

}  // namespace
}  // namespace foundry::storage
