// Store over RocksDB: round trips, scans and paging, opening errors, locking.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <limits>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using foundry::v1::Campaign;
using foundry::v1::Puzzle;
using testing::Ids;
using testing::Listing;
using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::RawStore;
using testing::SameMessage;
using testing::ScanAll;
using testing::ScanPaged;
using testing::TempDir;
using ::testing::HasSubstr;

constexpr char kSn[] = "secret-number";
constexpr char kSd[] = "sudoku";

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
      b.puzzles.push_back(MakePuzzle(family, levels[i % levels.size()], campaign, first + i));
    }
    b.campaign = MakeCampaign(campaign, family, first + n);
    return b;
  }

  TempDir tmp_;
};

INSTANTIATE_TEST_SUITE_P(SyncWrites, StoreTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Sync" : "NoSync"; });

// ---------------------------------------------------------------------------
// Round trips

TEST_P(StoreTest, RoundTrip) {
  CommitBatch b1 = Batch(kSn, "c-1", 0, 5);
  CommitBatch b2 = Batch(kSd, "c-2", 0, 3, {"medium"});
  CommitBatch b3 = Batch(kSn, "c-1", 5, 2);
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    EXPECT_TRUE(store->PuzzleCounts().empty());
    ASSERT_TRUE(store->Commit(b1).ok());
    ASSERT_TRUE(store->Commit(b2).ok());
    ASSERT_TRUE(store->Commit(b3).ok());

    for (const CommitBatch* b : {&b1, &b2, &b3}) {
      for (const Puzzle& p : b->puzzles) {
        Result<Puzzle> got = store->GetPuzzle(p.id());
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        EXPECT_TRUE(SameMessage(testing::WithoutPlays(*got), p));
      }
    }
    Result<std::vector<bool>> has = store->ContainsPuzzles(
        {b1.puzzles[0].id(), "sn-00000000000000000000000000000000", b2.puzzles[2].id(), ""});
    ASSERT_TRUE(has.ok());
    EXPECT_EQ(*has, (std::vector<bool>{true, false, true, false}));
    Result<std::vector<bool>> none = store->ContainsPuzzles({});
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());

    Result<std::vector<Campaign>> campaigns = store->LoadCampaigns();
    ASSERT_TRUE(campaigns.ok());
    ASSERT_EQ(campaigns->size(), 2u);
    EXPECT_TRUE(SameMessage((*campaigns)[0], b3.campaign));  // the latest record of c-1
    EXPECT_TRUE(SameMessage((*campaigns)[1], b2.campaign));

    const std::map<std::string, uint64_t> want{{kSn, 7}, {kSd, 3}};
    EXPECT_EQ(store->PuzzleCounts(), want);
  }
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 7}, {kSd, 3}}));
    Result<Puzzle> got = store->GetPuzzle(b3.puzzles[1].id());
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(SameMessage(testing::WithoutPlays(*got), b3.puzzles[1]));
    Result<std::vector<Campaign>> campaigns = store->LoadCampaigns();
    ASSERT_TRUE(campaigns.ok());
    EXPECT_EQ(campaigns->size(), 2u);
  }
}

TEST_P(StoreTest, GetMissingPuzzleIsNotFound) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  Result<Puzzle> got = store->GetPuzzle("sd-0123");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(got.status().message(), "no puzzle with id sd-0123");
}

TEST_P(StoreTest, PutCampaignReplacesAndLoadsInIdOrder) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->PutCampaign(MakeCampaign("c-b", kSn, 1)).ok());
  ASSERT_TRUE(store->PutCampaign(MakeCampaign("c-a", kSd, 2)).ok());
  ASSERT_TRUE(store->PutCampaign(MakeCampaign("c-b", kSn, 9)).ok());
  Result<std::vector<Campaign>> all = store->LoadCampaigns();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id(), "c-a");
  EXPECT_EQ((*all)[1].id(), "c-b");
  EXPECT_EQ((*all)[1].next_index(), 9u);
  EXPECT_EQ(store->PutCampaign(Campaign()).code(), Status::Code::kInvalidArgument);
  Campaign bad = MakeCampaign("c-c", kSn, 1);
  bad.set_message("\xff");
  EXPECT_EQ(store->PutCampaign(bad).code(), Status::Code::kInvalidArgument);
  Result<std::vector<Campaign>> still = store->LoadCampaigns();
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(still->size(), 2u);
}

TEST_P(StoreTest, CommitOfOnlyACampaignRecord) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  CommitBatch b;
  b.campaign = MakeCampaign("c-1", kSn, 100);
  ASSERT_TRUE(store->Commit(b).ok());
  Result<std::vector<Campaign>> all = store->LoadCampaigns();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].next_index(), 100u);
  EXPECT_TRUE(store->PuzzleCounts().empty());
}

// CommitNew, the campaign's commit: stored and repeated ids are skipped and
// counted, the first max_new of the rest are stored, and the record that
// `finish` completes is written with them.
TEST_P(StoreTest, CommitNewSkipsStoredAndRepeatedIdsAndStopsAtMaxNew) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->Commit(Batch(kSn, "c-old", 0, 3)).ok());  // ids of c-old 0..2 are stored

  CommitBatch b;
  // Index 10 repeats the id of c-old's puzzle 1; index 12 repeats index 11's.
  Puzzle stored_elsewhere = MakePuzzle(kSn, "easy", "c-new", 10);
  stored_elsewhere.set_id(MakePuzzle(kSn, "easy", "c-old", 1).id());
  b.puzzles.push_back(stored_elsewhere);
  b.puzzles.push_back(MakePuzzle(kSn, "easy", "c-new", 11));
  Puzzle repeat = MakePuzzle(kSn, "hard", "c-new", 12);
  repeat.set_id(b.puzzles.back().id());
  b.puzzles.push_back(repeat);
  for (uint64_t i = 13; i < 18; ++i) b.puzzles.push_back(MakePuzzle(kSn, "hard", "c-new", i));
  b.campaign.set_id("c-new");
  int calls = 0;
  Result<NewPuzzles> kept = store->CommitNew(b, 4, [&](const NewPuzzles& n, Campaign& c) {
    ++calls;
    EXPECT_EQ(n.added, 4u);
    EXPECT_EQ(n.duplicates, 2u);
    c = MakeCampaign("c-new", kSn, 15);
    c.mutable_counters()->set_stored(n.added);
  });
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(kept->added, 4u);
  EXPECT_EQ(kept->duplicates, 2u);
  // Stored: 11, 13, 14, 15 (the first four new ones); not 16 and 17.
  EXPECT_EQ(store->PuzzleCounts().at(kSn), 3u + 4u);
  for (uint64_t i : {11, 13, 14, 15}) {
    EXPECT_TRUE(store->GetPuzzle(MakePuzzle(kSn, "", "c-new", i).id()).ok()) << i;
  }
  for (uint64_t i : {16, 17}) {
    EXPECT_FALSE(store->GetPuzzle(MakePuzzle(kSn, "", "c-new", i).id()).ok()) << i;
  }
  Result<std::vector<Campaign>> all = store->LoadCampaigns();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id(), "c-new");
  EXPECT_EQ((*all)[0].counters().stored(), 4u);
  EXPECT_EQ((*all)[0].next_index(), 15u);

  // A candidate index the campaign already holds is a caller's bug: refused,
  // and nothing of the batch is written.
  CommitBatch again;
  again.puzzles.push_back(MakePuzzle(kSn, "easy", "c-new", 100));
  Puzzle reused = MakePuzzle(kSn, "easy", "c-other", 13);
  reused.set_campaign_id("c-new");
  again.puzzles.push_back(reused);
  again.campaign.set_id("c-new");
  Result<NewPuzzles> refused = store->CommitNew(again, 10, [](const NewPuzzles&, Campaign& c) {
    c = MakeCampaign("c-new", kSn, 200);
  });
  EXPECT_EQ(refused.status().code(), Status::Code::kAlreadyExists) << refused.status().ToString();
  EXPECT_THAT(refused.status().message(), HasSubstr("candidate index 13"));
  EXPECT_FALSE(store->GetPuzzle(MakePuzzle(kSn, "", "c-new", 100).id()).ok());
  EXPECT_EQ(store->PuzzleCounts().at(kSn), 7u);
}

TEST_P(StoreTest, CommitRejectsBadBatchesAndWritesNothing) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  CommitBatch first = Batch(kSn, "c-1", 0, 3);
  ASSERT_TRUE(store->Commit(first).ok());

  auto expect_rejected = [&](CommitBatch b, Status::Code code, const std::string& text) {
    Status s = store->Commit(b);
    EXPECT_EQ(s.code(), code) << s.ToString();
    EXPECT_THAT(s.message(), HasSubstr(text));
    // Nothing of the batch is visible.
    for (const Puzzle& p : b.puzzles) {
      if (p.id() == first.puzzles[0].id()) continue;
      EXPECT_EQ(store->GetPuzzle(p.id()).status().code(), Status::Code::kNotFound) << p.id();
    }
    Result<std::vector<Campaign>> all = store->LoadCampaigns();
    ASSERT_TRUE(all.ok());
    ASSERT_EQ(all->size(), 1u);
    EXPECT_TRUE(SameMessage((*all)[0], first.campaign));
    EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 3}}));
  };

  // An id that is already stored (with new ones around it).
  CommitBatch again = Batch(kSn, "c-1", 3, 2);
  again.puzzles.push_back(first.puzzles[0]);
  again.puzzles.back().set_index(10);
  expect_rejected(again, Status::Code::kAlreadyExists, "already stored");

  // The same id twice in one batch.
  CommitBatch twice = Batch(kSn, "c-1", 3, 2);
  twice.puzzles.push_back(twice.puzzles[0]);
  twice.puzzles.back().set_index(9);
  expect_rejected(twice, Status::Code::kAlreadyExists, "twice");

  // A candidate index of the campaign that already has a member.
  CommitBatch reused = Batch(kSn, "c-1", 2, 1);
  reused.puzzles[0].set_id("sn-ffffffffffffffffffffffffffffffff");
  expect_rejected(reused, Status::Code::kAlreadyExists, "candidate index 2");

  // A puzzle of another campaign.
  CommitBatch other = Batch(kSn, "c-1", 3, 2);
  other.puzzles[1].set_campaign_id("c-2");
  expect_rejected(other, Status::Code::kInvalidArgument, "c-2");

  // Key components with a NUL byte; missing id or family; missing campaign id.
  CommitBatch nul = Batch(kSn, "c-1", 3, 1);
  nul.puzzles[0].set_family(std::string("secret\0number", 13));
  expect_rejected(nul, Status::Code::kInvalidArgument, "NUL");
  CommitBatch no_id = Batch(kSn, "c-1", 3, 1);
  no_id.puzzles[0].clear_id();
  expect_rejected(no_id, Status::Code::kInvalidArgument, "no id");
  CommitBatch no_family = Batch(kSn, "c-1", 3, 1);
  no_family.puzzles[0].clear_family();
  expect_rejected(no_family, Status::Code::kInvalidArgument, "no family");
  // A string field protobuf would write but not read back.
  CommitBatch bad_utf8 = Batch(kSn, "c-1", 3, 2);
  bad_utf8.puzzles[1].set_puzzle_json("{\"x\":\"\xff\xfe\"}");
  expect_rejected(bad_utf8, Status::Code::kInvalidArgument, "UTF-8");
  CommitBatch bad_campaign = Batch(kSn, "c-1", 3, 2);
  (*bad_campaign.campaign.mutable_spec()->mutable_params())["digits"] = "\xc3";
  expect_rejected(bad_campaign, Status::Code::kInvalidArgument, "UTF-8");
  CommitBatch no_campaign = Batch(kSn, "c-1", 3, 1);
  no_campaign.campaign.clear_id();
  expect_rejected(no_campaign, Status::Code::kInvalidArgument, "campaign has no id");
}

// A large batch is visible as a whole after Commit and after a reopen.
TEST_P(StoreTest, ThousandPuzzleBatchIsFullyVisible) {
  CommitBatch big = Batch(kSd, "c-big", 0, 1000, {"easy", "medium", "hard", "expert"});
  std::vector<std::string> ids;
  for (const Puzzle& p : big.puzzles) ids.push_back(p.id());
  auto check = [&](Store& store) {
    Result<std::vector<bool>> has = store.ContainsPuzzles(ids);
    ASSERT_TRUE(has.ok());
    EXPECT_EQ(std::count(has->begin(), has->end(), true), 1000);
    EXPECT_EQ(store.PuzzleCounts(), (std::map<std::string, uint64_t>{{kSd, 1000}}));
    Result<testing::ScanResult> all = ScanAll(store, PuzzleFilter{});
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->puzzles.size(), 1000u);
    Result<testing::ScanResult> members = ScanAll(store, PuzzleFilter{"", "", "c-big"});
    ASSERT_TRUE(members.ok());
    EXPECT_EQ(Ids(members->puzzles), ids);
    Result<testing::ScanResult> hard = ScanAll(store, PuzzleFilter{kSd, "hard", ""});
    ASSERT_TRUE(hard.ok());
    EXPECT_EQ(hard->puzzles.size(), 250u);
    // Pages larger than the scan's internal batch of 256.
    EXPECT_EQ(ScanPaged(store, PuzzleFilter{"", "", "c-big"}, 300), ids);
    EXPECT_EQ(ScanPaged(store, PuzzleFilter{}, 999), Ids(all->puzzles));
  };
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->Commit(big).ok());
    check(*store);
  }
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  check(*store);
}

// ---------------------------------------------------------------------------
// Scan

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
      {kSn, "", ""},         {kSn, "hard", ""},  {kSd, "expert", ""}, {kSd, "none", ""},
      {"no-such", "", ""},   {"", "", "c-1"},    {"", "", "c-2"},     {kSn, "", "c-2"},
      {kSn, "easy", "c-2"},  {kSd, "", "c-1"},   {"", "", "c-3"},
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
  const std::vector<PuzzleFilter> filters = {
      {}, {kSn, "", ""}, {kSn, "hard", ""}, {"", "", "c-2"}, {kSn, "", "c-2"}, {kSd, "easy", "c-2"}};
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
      {{}, "70"},                       // a tag and no key
      {{}, "78616263"},                 // unknown tag 'x'
      {{}, family_token},               // a family token in an unfiltered scan
      {{kSn, "", ""}, all->token},      // a puzzles token in a family scan
      {{kSd, "", ""}, family_token},    // another family's token
      {{kSn, "", ""}, camp->token},     // a campaign token in a family scan
      {{"", "", "c-2"}, camp->token},   // another campaign's token
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

TEST_P(StoreTest, MissingDirWithoutCreateIsInvalidArgument) {
  StoreOptions o = Options();
  o.create_if_missing = false;
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(DbDir()));
  // An empty existing directory holds no store either.
  std::filesystem::create_directory(DbDir());
  s = Store::Open(DbDir(), o);
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(std::filesystem::is_empty(DbDir()));
}

TEST_P(StoreTest, OpensAnExistingEmptyDirectory) {
  std::filesystem::create_directory(DbDir());
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
}

TEST_P(StoreTest, NewStoreRecordsTheSchemaVersion) {
  { ASSERT_TRUE(OpenOrDie()); }
  RawStore raw(DbDir());
  ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
  std::string value;
  ASSERT_TRUE(raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &value).ok());
  EXPECT_EQ(value, "3");
}

TEST_P(StoreTest, OtherSchemaVersionIsFailedPreconditionAndChangesNothing) {
  CommitBatch b = Batch(kSn, "c-1", 0, 4);
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->Commit(b).ok());
  }
  auto set_version = [&](const std::string& v) {
    RawStore raw(DbDir());
    ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
    ASSERT_TRUE(raw.db()->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", v).ok());
  };
  set_version("99");
  const auto before = Listing(DbDir());

  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(s.status().message(),
            "store at " + DbDir() + " has schema version 99; this build reads version 3");
  EXPECT_EQ(Listing(DbDir()), before);

  {
    RawStore raw(DbDir());
    ASSERT_TRUE(raw.status().ok());
    std::string value;
    ASSERT_TRUE(raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &value).ok());
    EXPECT_EQ(value, "99");
  }
  set_version("1");
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  for (const Puzzle& p : b.puzzles) EXPECT_TRUE(store->GetPuzzle(p.id()).ok());
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 4}}));
}

TEST_P(StoreTest, UnreadableSchemaVersionIsDataLoss) {
  { ASSERT_TRUE(OpenOrDie()); }
  {
    RawStore raw(DbDir());
    ASSERT_TRUE(raw.status().ok());
    ASSERT_TRUE(raw.db()->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", "one").ok());
  }
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss);
}

TEST_P(StoreTest, PlainRocksDbIsRefusedAndLeftAlone) {
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, DbDir(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "their-key", "their-value").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("not a Puzzle Foundry store"));
  EXPECT_EQ(Listing(DbDir()), before);

  // Still their database: one column family, their key.
  std::vector<std::string> cfs;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), DbDir(), &cfs).ok());
  EXPECT_EQ(cfs, std::vector<std::string>{"default"});
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), DbDir(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string value;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "their-key", &value).ok());
  EXPECT_FALSE(db->Get(rocksdb::ReadOptions(), "schema_version", &value).ok());
}

TEST_P(StoreTest, DirectoryOfOtherFilesIsRefusedAndLeftAlone) {
  std::filesystem::create_directory(DbDir());
  std::ofstream(std::filesystem::path(DbDir()) / "notes.txt") << "my thesis, draft 7\n";
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(s.status().message(), HasSubstr("not empty"));
  EXPECT_EQ(Listing(DbDir()), before);
}

TEST_P(StoreTest, GarbageCurrentFileIsAClearErrorAndLeftAlone) {
  std::filesystem::create_directory(DbDir());
  std::ofstream(std::filesystem::path(DbDir()) / "CURRENT") << "this is not a manifest name";
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().code(),
              ::testing::AnyOf(Status::Code::kDataLoss, Status::Code::kFailedPrecondition))
      << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr(DbDir()));
  // The probe takes RocksDB's LOCK file; nothing else appears.
  auto after = Listing(DbDir());
  after.erase("LOCK");
  EXPECT_EQ(after, before);
}

TEST_P(StoreTest, CurrentNamingAMissingManifestIsDataLoss) {
  std::filesystem::create_directory(DbDir());
  std::ofstream(std::filesystem::path(DbDir()) / "CURRENT") << "MANIFEST-000001\n";
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("MANIFEST-000001"));
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / "MANIFEST-000001"));
}

TEST_P(StoreTest, CorruptManifestIsDataLoss) {
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 3)).ok());
  }
  int corrupted = 0;
  for (const auto& e : std::filesystem::directory_iterator(DbDir())) {
    if (e.path().filename().string().rfind("MANIFEST-", 0) != 0) continue;
    const auto size = e.file_size();
    std::ofstream out(e.path(), std::ios::binary | std::ios::trunc);
    for (uintmax_t i = 0; i < size; ++i) out.put(static_cast<char>(0xA5 ^ (i * 7)));
    ++corrupted;
  }
  ASSERT_GT(corrupted, 0);
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("Corruption"));
}

TEST_P(StoreTest, PathThatIsAFileIsRefused) {
  std::ofstream(DbDir()) << "x";
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
}

// A creation interrupted after RocksDB made its files but before the schema
// version was stored leaves our marker: the next Open finishes the job.
TEST_P(StoreTest, InterruptedCreationIsFinished) {
  std::filesystem::create_directory(DbDir());
  std::ofstream(std::filesystem::path(DbDir()) / kInitMarkerFile) << "";
  {
    rocksdb::DBOptions o;
    o.create_if_missing = true;
    o.create_missing_column_families = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
        {"default", rocksdb::ColumnFamilyOptions()}, {"puzzles", rocksdb::ColumnFamilyOptions()}};
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, DbDir(), cfs, &handles, &raw).ok());
    for (auto* h : handles) ASSERT_TRUE(raw->DestroyColumnFamilyHandle(h).ok());
    ASSERT_TRUE(raw->Close().ok());
    delete raw;
  }
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
  ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  store.reset();
  store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 2}}));
}

TEST_P(StoreTest, MarkerOnlyDirectoryIsInitialised) {
  std::filesystem::create_directory(DbDir());
  std::ofstream(std::filesystem::path(DbDir()) / kInitMarkerFile) << "";
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
}

// ---------------------------------------------------------------------------
// Locking

TEST_P(StoreTest, SecondOpenWhileOpenIsUnavailable) {
  auto first = OpenOrDie();
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  Result<std::unique_ptr<Store>> second = Store::Open(DbDir(), Options());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kUnavailable) << second.status().ToString();
  EXPECT_THAT(second.status().message(), HasSubstr("the store at " + DbDir() + " is already open"));
  // The first one is unharmed.
  EXPECT_EQ(first->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 2}}));
  first.reset();
  EXPECT_TRUE(OpenOrDie());
}

// Another process holding RocksDB's lock (an fcntl lock on LOCK, as RocksDB
// takes it): the child only locks the file and waits, so it needs nothing
// of this process's threads.
TEST_P(StoreTest, LockHeldByAnotherProcessIsUnavailable) {
  { ASSERT_TRUE(OpenOrDie()); }
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const std::string lock_path = DbDir() + "/LOCK";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int fd = ::open(lock_path.c_str(), O_RDWR);
    struct flock fl = {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    char ok = (fd >= 0 && ::fcntl(fd, F_SETLK, &fl) == 0) ? 'y' : 'n';
    (void)!::write(ready[1], &ok, 1);
    char c;
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ASSERT_EQ(ok, 'y');
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kUnavailable) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("another process has the store at " + DbDir() + " open"));
  (void)!::write(release[1], "x", 1);
  int wstatus = 0;
  ::waitpid(child, &wstatus, 0);
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
  EXPECT_TRUE(OpenOrDie());
}

// ---------------------------------------------------------------------------
// Concurrency: readers run while a writer commits; the counters stay exact.

TEST_P(StoreTest, ReadersRunWhileAWriterCommits) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  constexpr int kBatches = 30;
  constexpr int kPerBatch = 20;
  std::atomic<bool> done{false};
  std::atomic<int> reader_errors{0};
  auto reader = [&](const PuzzleFilter& filter) {
    while (!done.load()) {
      Result<testing::ScanResult> r = ScanAll(*store, filter);
      if (!r.ok()) {
        ++reader_errors;
        continue;
      }
      // A scan reads one snapshot, so it sees whole commits only.
      if (filter.campaign_id == "c-1" && r->puzzles.size() % kPerBatch != 0) ++reader_errors;
    }
  };
  std::thread r1(reader, PuzzleFilter{"", "", "c-1"});
  std::thread r2(reader, PuzzleFilter{kSn, "easy", ""});
  std::thread w2([&] {
    for (int i = 0; i < kBatches; ++i) {
      EXPECT_TRUE(store->Commit(Batch(kSd, "c-2", i * kPerBatch, kPerBatch)).ok());
    }
  });
  for (int i = 0; i < kBatches; ++i) {
    ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", i * kPerBatch, kPerBatch)).ok());
  }
  w2.join();
  done = true;
  r1.join();
  r2.join();
  EXPECT_EQ(reader_errors.load(), 0);
  EXPECT_EQ(store->PuzzleCounts(),
            (std::map<std::string, uint64_t>{{kSn, kBatches * kPerBatch}, {kSd, kBatches * kPerBatch}}));
}

// Two threads racing to commit the same puzzles: exactly one wins.
TEST_P(StoreTest, RacingCommitsOfTheSameIdsStoreThemOnce) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  for (int round = 0; round < 20; ++round) {
    CommitBatch b = Batch(kSn, "c-1", round * 5, 5);
    std::atomic<int> wins{0};
    std::thread t1([&] { wins += store->Commit(b).ok(); });
    std::thread t2([&] { wins += store->Commit(b).ok(); });
    t1.join();
    t2.join();
    EXPECT_EQ(wins.load(), 1);
  }
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 100}}));
}

// ---------------------------------------------------------------------------
// Plays (not in Store yet; through RocksStore)

TEST_P(StoreTest, PlaysMergeThroughRocksDb) {
  {
    Result<std::unique_ptr<RocksStore>> store = RocksStore::Open(DbDir(), Options());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Result<PlayCounts> zero = (*store)->GetPlays("sn-1");
    ASSERT_TRUE(zero.ok());
    EXPECT_EQ(*zero, PlayCounts{});
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*store)->AddPlays("sn-1", {1, 0}).ok());
    ASSERT_TRUE((*store)->AddPlays("sn-1", {0, 3}).ok());
    ASSERT_TRUE((*store)->AddPlays("sn-2", {5, 5}).ok());
    Result<PlayCounts> got = (*store)->GetPlays("sn-1");
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, (PlayCounts{10, 3}));
    EXPECT_EQ((*store)->AddPlays("", {1, 1}).code(), Status::Code::kInvalidArgument);
  }
  Result<std::unique_ptr<RocksStore>> store = RocksStore::Open(DbDir(), Options());
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->AddPlays("sn-1", {2, 2}).ok());
  EXPECT_EQ(*(*store)->GetPlays("sn-1"), (PlayCounts{12, 5}));
  EXPECT_EQ(*(*store)->GetPlays("sn-2"), (PlayCounts{5, 5}));
}

// GetPuzzleRecord is GetPuzzle before parsing: the committed bytes and the
// raw play counts, which the service turns into the answer (PresentRecord).
TEST_P(StoreTest, GetPuzzleRecordGivesTheCommittedBytesAndThePlays) {
  Result<std::unique_ptr<RocksStore>> store = RocksStore::Open(DbDir(), Options());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  CommitBatch b = Batch(kSn, "c-rec", 0, 2);
  ASSERT_TRUE((*store)->Commit(b).ok());
  const Puzzle& first = b.puzzles[0];
  ASSERT_TRUE((*store)->AddPlays(first.id(), {4, 1, 9000}).ok());

  Result<PuzzleRecord> rec = (*store)->GetPuzzleRecord(first.id());
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  Puzzle parsed;
  ASSERT_TRUE(parsed.ParseFromString(rec->bytes));
  EXPECT_FALSE(parsed.has_plays()) << "plays are never inside the record";
  EXPECT_FALSE(parsed.has_observed());
  Result<Puzzle> full = (*store)->GetPuzzle(first.id());
  ASSERT_TRUE(full.ok());
  full->clear_plays();
  full->clear_observed();
  EXPECT_EQ(parsed.SerializeAsString(), full->SerializeAsString());
  EXPECT_EQ(rec->plays, (PlayCounts{4, 1, 9000}));

  Result<PuzzleRecord> unplayed = (*store)->GetPuzzleRecord(b.puzzles[1].id());
  ASSERT_TRUE(unplayed.ok());
  EXPECT_EQ(unplayed->plays, PlayCounts{});
  EXPECT_EQ((*store)->GetPuzzleRecord("sn-00000000000000000000000000000000").status().code(),
            Status::Code::kNotFound);
}

}  // namespace
}  // namespace foundry::storage
