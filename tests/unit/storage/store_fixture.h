// StoreTest: the fixture of the RocksDB store's tests, run over each
// StoreOptions configuration (sync writes on and off).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {

// The names the store's tests use (store_test_util.h, the wire types).
using foundry::v1::Campaign;
using foundry::v1::Puzzle;
using ::testing::HasSubstr;
using testing::Ids;
using testing::Listing;
using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::RawStore;
using testing::SameMessage;
using testing::ScanAll;
using testing::ScanPaged;
using testing::TempDir;

inline constexpr char kSn[] = "secret-number";

// A rating model whose effect is easy to see: a solve moves the player up
// 100 and the puzzle down 100, a failure the other way. `rate_unserved`:
// whether plays of puzzles the store did not serve the player are rated
// (tests that pick puzzles by id want them rated; the rule has its own).
inline RatingModel FakeRatingModel(bool rate_unserved) {
  RatingModel m;
  m.rate = [](const RatingState& player, const RatingState& puzzle, bool solved) {
    const double d = solved ? 100 : -100;
    RatingState p = player, z = puzzle;
    p.rating += d;
    z.rating -= d;
    return std::make_pair(p, z);
  };
  m.rate_unserved = rate_unserved;
  return m;
}
inline constexpr char kSd[] = "sudoku";

// A judged play of a stored secret-number-style puzzle whose answer is 909:
// right when `solved`, else the wrong answer 908.
inline PlayerPlay JudgedPlay(const std::string& id, const std::string& player, bool solved) {
  PlayerPlay p;
  p.puzzle_id = id;
  p.seconds = 2;
  p.solved = solved;
  p.judged = true;
  p.answer = solved ? "909" : "908";
  p.player_id = player;
  return p;
}

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
