// StoreTest: the fixture of the RocksDB store's tests, run over each
// StoreOptions configuration (sync writes on and off).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {

inline constexpr char kSn[] = "secret-number";
inline constexpr char kSd[] = "sudoku";

// The fixture runs every test over each StoreOptions configuration.
class StoreTest : public ::testing::TestWithParam<bool> {
 protected:
  StoreOptions Options() const {
    StoreOptions o;
    o.sync_writes = GetParam();
    return o;
  }

  std::string DbDir() const { return tmp_.Sub("db"); }

  std::unique_ptr<Store> OpenOrDie() {
    Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }

  // A batch of `n` puzzles of campaign `campaign` from candidate index
  // `first`, alternating the given levels.
  static CommitBatch Batch(const std::string& family, const std::string& campaign, uint64_t first,
                           int n, std::vector<std::string> levels = {"easy", "hard"}) {
    CommitBatch b;
    for (int i = 0; i < n; ++i) {
      b.puzzles.push_back(
          testing::MakePuzzle(family, levels[i % levels.size()], campaign, first + i));
    }
    b.campaign = testing::MakeCampaign(campaign, family, first + n);
    return b;
  }

  testing::TempDir tmp_;
};

}  // namespace foundry::storage
