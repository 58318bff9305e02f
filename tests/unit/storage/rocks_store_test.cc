// Store over RocksDB: round trips, commits, concurrency and plays.
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
  Result<NewPuzzles> refused = store->CommitNew(
      again, 10, [](const NewPuzzles&, Campaign& c) { c = MakeCampaign("c-new", kSn, 200); });
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
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, kBatches * kPerBatch},
                                                                    {kSd, kBatches * kPerBatch}}));
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
