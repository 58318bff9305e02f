// LiveStoreTest: a RocksStore in a temporary directory and the puzzles it
// should hold, for storage tests that commit, roll back, reopen and compare
// what the store answers with what it was given.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage::testing {

class LiveStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { Reopen(); }

  std::string Dir() const { return tmp_.Sub("db"); }

  // Closes the store (if open) and opens it again.
  void Reopen() {
    store_.reset();
    auto s = RocksStore::Open(Dir(), StoreOptions{});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(*s);
  }

  // `n` puzzles of `campaign` from candidate `first`, in one commit; levels
  // easy/hard alternating, score index%100/100, created 1700000000000 +
  // index (MakePuzzle).
  void Add(const std::string& family, const std::string& campaign, uint64_t first, int n) {
    CommitBatch b;
    for (int i = 0; i < n; ++i) {
      foundry::v1::Puzzle p =
          MakePuzzle(family, (first + i) % 2 ? "hard" : "easy", campaign, first + i);
      b.puzzles.push_back(p);
      live_[p.id()] = p;
      committed_.push_back(p.id());
    }
    b.campaign = MakeCampaign(campaign, family, first + n);
    ASSERT_TRUE(store_->Commit(b).ok());
  }

  // Rolls `campaign` back to candidate `from`.
  void Rollback(const std::string& family, const std::string& campaign, uint64_t from) {
    Result<uint64_t> removed = store_->RollbackCampaign(MakeCampaign(campaign, family, from), from);
    ASSERT_TRUE(removed.ok()) << removed.status().ToString();
    for (auto it = live_.begin(); it != live_.end();) {
      const bool gone = it->second.campaign_id() == campaign && it->second.index() >= from;
      it = gone ? live_.erase(it) : std::next(it);
    }
    std::erase_if(committed_, [&](const std::string& id) { return live_.count(id) == 0; });
  }

  TempDir tmp_;
  std::unique_ptr<RocksStore> store_;
  std::map<std::string, foundry::v1::Puzzle> live_;  // id -> the puzzle as committed
  std::vector<std::string> committed_;               // the live ids in commit order
};

}  // namespace foundry::storage::testing
