// Store over RocksDB: scans, filters and paging.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store_fixture.h"

namespace foundry::storage {
namespace {

class ScanTest : public StoreTest {
 protected:
  void SetUp() override {
    store_ = OpenOrDie();
    ASSERT_TRUE(store_);
    // c-1: secret-number, indices 0..19; c-2: sudoku 0..9 then
    // secret-number 10..14 (a campaign holding two families).
    ASSERT_TRUE(store_->Commit(Batch(kSn, "c-1", 0, 12, {"easy", "hard", "medium"})).ok());
    ASSERT_TRUE(store_->Commit(Batch(kSd, "c-2", 0, 10, {"expert", "easy"})).ok());
    ASSERT_TRUE(store_->Commit(Batch(kSn, "c-1", 12, 8, {"hard"})).ok());
    ASSERT_TRUE(store_->Commit(Batch(kSn, "c-2", 10, 5, {"easy"})).ok());
    Result<testing::ScanResult> all = ScanAll(*store_, PuzzleFilter{});
    ASSERT_TRUE(all.ok());
    all_ = all->puzzles;
  }

  std::vector<std::string> Expected(const PuzzleFilter& f) const {
    // The order each index promises: campaign members by index, a family
    // (by_score) by (score, id), everything else by id.
    std::vector<Puzzle> match;
    for (const Puzzle& p : all_) {
      if (!f.family.empty() && p.family() != f.family) continue;
      if (!f.level.empty() && p.difficulty().level() != f.level) continue;
      if (!f.campaign_id.empty() && p.campaign_id() != f.campaign_id) continue;
      match.push_back(p);
    }
    std::sort(match.begin(), match.end(), [&](const Puzzle& a, const Puzzle& b) {
      if (!f.campaign_id.empty()) return a.index() < b.index();
      if (!f.family.empty()) {
        return std::make_pair(a.difficulty().score(), a.id()) <
               std::make_pair(b.difficulty().score(), b.id());
      }
      return a.id() < b.id();
    });
    return Ids(match);
  }

  std::unique_ptr<Store> store_;
  std::vector<Puzzle> all_;
};

INSTANTIATE_TEST_SUITE_P(SyncWrites, ScanTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Sync" : "NoSync"; });

TEST_P(ScanTest, NoFilterVisitsEveryPuzzleInIdOrder) {
  ASSERT_EQ(all_.size(), 35u);
  std::vector<std::string> ids = Ids(all_);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 35u);
}

TEST_P(ScanTest, FiltersSelectAndOrder) {
  const std::vector<PuzzleFilter> filters = {
      {kSn, "", ""},        {kSn, "hard", ""}, {kSd, "expert", ""}, {kSd, "none", ""},
      {"no-such", "", ""},  {"", "", "c-1"},   {"", "", "c-2"},     {kSn, "", "c-2"},
      {kSn, "easy", "c-2"}, {kSd, "", "c-1"},  {"", "", "c-3"},
  };
  for (const PuzzleFilter& f : filters) {
    SCOPED_TRACE(f.family + "/" + f.level + "/" + f.campaign_id);
    Result<testing::ScanResult> r = ScanAll(*store_, f);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(Ids(r->puzzles), Expected(f));
    EXPECT_EQ(r->token, "");
  }
  // Campaign members come back in candidate-index order.
  Result<testing::ScanResult> c1 = ScanAll(*store_, PuzzleFilter{"", "", "c-1"});
  ASSERT_TRUE(c1.ok());
  ASSERT_EQ(c1->puzzles.size(), 20u);
  for (size_t i = 0; i < 20; ++i) EXPECT_EQ(c1->puzzles[i].index(), i);
}

TEST_P(ScanTest, PagesConcatenateToTheFullScan) {
  const std::vector<PuzzleFilter> filters = {{},
                                             {kSn, "", ""},
                                             {kSn, "hard", ""},
                                             {"", "", "c-2"},
                                             {kSn, "", "c-2"},
                                             {kSd, "easy", "c-2"}};
  for (const PuzzleFilter& f : filters) {
    const std::vector<std::string> want = Expected(f);
    for (uint64_t limit : {1u, 2u, 3u, 5u, 7u, 34u, 35u, 36u, 1000u}) {
      SCOPED_TRACE(f.family + "/" + f.level + "/" + f.campaign_id + " limit " +
                   std::to_string(limit));
      std::vector<std::string> got = ScanPaged(*store_, f, limit);
      EXPECT_EQ(got, want);
    }
  }
}

TEST_P(ScanTest, HugeLimitMeansEverything) {
  for (uint64_t limit : {std::numeric_limits<uint64_t>::max(), uint64_t{1} << 63, uint64_t{255},
                         uint64_t{256}, uint64_t{257}}) {
    Result<testing::ScanResult> r = ScanAll(*store_, PuzzleFilter{}, "", limit);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(Ids(r->puzzles), Ids(all_));
    EXPECT_EQ(r->token, "");
  }
}

TEST_P(ScanTest, ExactlyFullLastPageReturnsNoToken) {
  // 20 members of c-1: two pages of 10; the second ends the scan.
  Result<testing::ScanResult> p1 = ScanAll(*store_, PuzzleFilter{"", "", "c-1"}, "", 10);
  ASSERT_TRUE(p1.ok());
  EXPECT_EQ(p1->puzzles.size(), 10u);
  ASSERT_FALSE(p1->token.empty());
  Result<testing::ScanResult> p2 = ScanAll(*store_, PuzzleFilter{"", "", "c-1"}, p1->token, 10);
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(p2->puzzles.size(), 10u);
  EXPECT_EQ(p2->token, "");
}

TEST_P(ScanTest, VisitReturningFalseStopsWithAResumableToken) {
  std::vector<std::string> seen;
  Result<std::string> token = store_->Scan(PuzzleFilter{kSn, "", ""}, "", 0, [&](const Puzzle& p) {
    seen.push_back(p.id());
    return seen.size() < 4;
  });
  ASSERT_TRUE(token.ok());
  ASSERT_EQ(seen.size(), 4u);
  ASSERT_FALSE(token->empty());
  Result<testing::ScanResult> rest = ScanAll(*store_, PuzzleFilter{kSn, "", ""}, *token);
  ASSERT_TRUE(rest.ok());
  for (const Puzzle& p : rest->puzzles) seen.push_back(p.id());
  EXPECT_EQ(seen, Expected(PuzzleFilter{kSn, "", ""}));
}

TEST_P(ScanTest, PuzzlesCommittedAfterATokenAreNotVisitedTwice) {
  const PuzzleFilter f{"", "", "c-1"};
  Result<testing::ScanResult> p1 = ScanAll(*store_, f, "", 5);
  ASSERT_TRUE(p1.ok());
  ASSERT_TRUE(store_->Commit(Batch(kSn, "c-1", 20, 3)).ok());
  std::vector<std::string> ids = Ids(p1->puzzles);
  std::string token = p1->token;
  while (!token.empty()) {
    Result<testing::ScanResult> page = ScanAll(*store_, f, token, 5);
    ASSERT_TRUE(page.ok());
    for (const Puzzle& p : page->puzzles) ids.push_back(p.id());
    token = page->token;
  }
  EXPECT_EQ(ids.size(), 23u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 23u);
}

TEST_P(ScanTest, BadTokensAndFiltersAreInvalidArgument) {
  Result<testing::ScanResult> fam = ScanAll(*store_, PuzzleFilter{kSn, "", ""}, "", 2);
  ASSERT_TRUE(fam.ok());
  const std::string family_token = fam->token;
  Result<testing::ScanResult> all = ScanAll(*store_, PuzzleFilter{}, "", 2);
  ASSERT_TRUE(all.ok());
  Result<testing::ScanResult> camp = ScanAll(*store_, PuzzleFilter{"", "", "c-1"}, "", 2);
  ASSERT_TRUE(camp.ok());

  struct Case {
    PuzzleFilter filter;
    std::string token;
  };
  const std::vector<Case> cases = {
      {{}, "garbage"},
      {{}, "zz"},
      {{}, "7"},
      {{}, "70"},                      // a tag and no key
      {{}, "78616263"},                // unknown tag 'x'
      {{}, family_token},              // a family token in an unfiltered scan
      {{kSn, "", ""}, all->token},     // a puzzles token in a family scan
      {{kSd, "", ""}, family_token},   // another family's token
      {{kSn, "", ""}, camp->token},    // a campaign token in a family scan
      {{"", "", "c-2"}, camp->token},  // another campaign's token
      {{}, family_token.substr(0, family_token.size() - 1)},  // odd length
      {{}, std::string("70", 2) + "\xff"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.token);
    bool visited = false;
    Result<std::string> r = store_->Scan(c.filter, c.token, 10, [&](const Puzzle&) {
      visited = true;
      return true;
    });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(r.status().message(), "invalid page token (not from a query with this filter)");
    EXPECT_FALSE(visited);
  }

  // A level without a family.
  Result<testing::ScanResult> level_only = ScanAll(*store_, PuzzleFilter{"", "easy", ""});
  EXPECT_EQ(level_only.status().code(), Status::Code::kInvalidArgument);
  // The same token stays valid for its own filter.
  Result<testing::ScanResult> again = ScanAll(*store_, PuzzleFilter{kSn, "", ""}, family_token);
  EXPECT_TRUE(again.ok());
}

// ---------------------------------------------------------------------------
// Opening

}  // namespace
}  // namespace foundry::storage
