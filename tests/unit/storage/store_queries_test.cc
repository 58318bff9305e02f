// The store's reads: score, level and time range scans, uniform Sample,
// plays and the observed difficulty, and the upgrades of schema 1 and 2
// stores.
#include <algorithm>
#include <cmath>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "storage/observed_difficulty.h"
#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using foundry::v1::Puzzle;
using testing::Ids;
using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::ScanAll;
using testing::ScanPaged;

constexpr char kSn[] = "secret-number";
constexpr char kSd[] = "sudoku";

class StoreQueriesTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }

  // Opens the store in tmp_ (the one open must be closed first).
  void Open() {
    auto s = RocksStore::Open(tmp_.Sub("db"), StoreOptions{});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(*s);
  }

  // `n` puzzles of `family` in campaign `campaign`: scores index%100/100,
  // created 1700000000000 + index, levels easy/hard alternating.
  void Add(const std::string& family, const std::string& campaign, uint64_t first, int n) {
    CommitBatch b;
    for (int i = 0; i < n; ++i) {
      Puzzle p = MakePuzzle(family, i % 2 ? "hard" : "easy", campaign, first + i);
      b.puzzles.push_back(p);
      all_.push_back(p);
    }
    b.campaign = MakeCampaign(campaign, family, first + n);
    ASSERT_TRUE(store_->Commit(b).ok());
  }

  // Ids of the stored puzzles passing `keep`, sorted.
  template <typename Pred>
  std::vector<std::string> Expected(Pred keep) const {
    std::vector<std::string> ids;
    for (const Puzzle& p : all_) {
      if (keep(p)) ids.push_back(p.id());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  // The schema_version value written in the store `raw` has open.
  static std::string StoredSchemaVersion(testing::RawStore& raw) {
    std::string version;
    EXPECT_TRUE(
        raw.db()
            ->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &version)
            .ok());
    return version;
  }

  // Writes `version` as the schema_version of the store `raw` has open.
  static void WriteSchemaVersion(testing::RawStore& raw, const std::string& version) {
    ASSERT_TRUE(
        raw.db()
            ->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", version)
            .ok());
  }

  static std::vector<std::string> Sorted(std::vector<std::string> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  testing::TempDir tmp_;
  std::unique_ptr<RocksStore> store_;
  std::vector<Puzzle> all_;
};

TEST_F(StoreQueriesTest, ScoreRangeWalksByScoreInScoreOrderAndPages) {
  Add(kSn, "c-1", 0, 300);
  Add(kSd, "c-2", 0, 50);
  PuzzleFilter f(kSn, "", "");
  f.score = std::make_pair(0.25, 0.5);
  Result<testing::ScanResult> r = ScanAll(*store_, f);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // Both ends inclusive: 26 distinct scores, three puzzles each.
  EXPECT_EQ(r->puzzles.size(), 78u);
  for (size_t i = 1; i < r->puzzles.size(); ++i) {
    EXPECT_LE(r->puzzles[i - 1].difficulty().score(), r->puzzles[i].difficulty().score());
  }
  const auto expected = Expected([](const Puzzle& p) {
    return p.family() == kSn && p.difficulty().score() >= 0.25 && p.difficulty().score() <= 0.5;
  });
  EXPECT_EQ(Sorted(Ids(r->puzzles)), expected);
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 7)), expected);
  // With a level the family index is walked and the score checked per puzzle.
  f.level = "hard";
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 5)), Expected([](const Puzzle& p) {
              return p.family() == kSn && p.difficulty().level() == "hard" &&
                     p.difficulty().score() >= 0.25 && p.difficulty().score() <= 0.5;
            }));
}

TEST_F(StoreQueriesTest, CreatedRangeWithAndWithoutFamily) {
  Add(kSn, "c-1", 0, 200);
  Add(kSd, "c-2", 100, 100);
  PuzzleFilter f;
  f.created_after_unix_ms = 1700000000000 + 50;
  f.created_before_unix_ms = 1700000000000 + 150;
  auto in_range = [&](const Puzzle& p) {
    return p.created_unix_ms() >= f.created_after_unix_ms &&
           p.created_unix_ms() < f.created_before_unix_ms;
  };
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 9)), Expected(in_range));
  f.family = kSd;
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 9)),
            Expected([&](const Puzzle& p) { return p.family() == kSd && in_range(p); }));
  f.family.clear();
  f.campaign_id = "c-1";
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 9)),
            Expected([&](const Puzzle& p) { return p.campaign_id() == "c-1" && in_range(p); }));
}

// A level is not tied to a score range here (levels alternate), so the walk
// over by_score must check each entry's level: every match, in score order,
// across pages, and nothing of the other level or family.
TEST_F(StoreQueriesTest, FamilyAndLevelWalkByScoreInScoreOrder) {
  Add(kSn, "c-1", 0, 300);
  Add(kSd, "c-2", 0, 50);
  for (const char* level : {"easy", "hard"}) {
    const PuzzleFilter f(kSn, level, "");
    EXPECT_EQ(Sorted(ScanPaged(*store_, f, 7)), Expected([&](const Puzzle& p) {
                return p.family() == kSn && p.difficulty().level() == level;
              }));
    Result<testing::ScanResult> r = ScanAll(*store_, f);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (size_t i = 1; i < r->puzzles.size(); ++i) {
      EXPECT_LE(r->puzzles[i - 1].difficulty().score(), r->puzzles[i].difficulty().score());
    }
  }
  PuzzleFilter ranged(kSn, "hard", "");
  ranged.score = std::make_pair(0.1, 0.3);
  EXPECT_EQ(Sorted(ScanPaged(*store_, ranged, 4)), Expected([](const Puzzle& p) {
              return p.family() == kSn && p.difficulty().level() == "hard" &&
                     p.difficulty().score() >= 0.1 && p.difficulty().score() <= 0.3;
            }));
  EXPECT_TRUE(ScanPaged(*store_, PuzzleFilter(kSn, "expert", ""), 5).empty());
}

TEST_F(StoreQueriesTest, TokensAreBoundToTheirRange) {
  Add(kSn, "c-1", 0, 100);
  PuzzleFilter low(kSn, "", "");
  low.score = std::make_pair(0.0, 0.2);
  Result<testing::ScanResult> page = ScanAll(*store_, low, "", 3);
  ASSERT_TRUE(page.ok());
  ASSERT_FALSE(page->token.empty());
  PuzzleFilter high = low;
  high.score = std::make_pair(0.6, 0.9);
  Result<std::string> r = store_->Scan(high, page->token, 3, [](const Puzzle&) { return true; });
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  PuzzleFilter empty_range = low;
  empty_range.score = std::make_pair(0.9, 0.1);
  r = store_->Scan(empty_range, "", 3, [](const Puzzle&) { return true; });
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

TEST_F(StoreQueriesTest, SampleIsDistinctFilteredAndHonoursExclusions) {
  Add(kSn, "c-1", 0, 200);
  Add(kSd, "c-2", 0, 200);
  PuzzleFilter f(kSn, "hard", "");
  f.score = std::make_pair(0.1, 0.6);
  const auto matching = Expected([](const Puzzle& p) {
    return p.family() == kSn && p.difficulty().level() == "hard" && p.difficulty().score() >= 0.1 &&
           p.difficulty().score() <= 0.6;
  });
  Result<std::vector<Puzzle>> s = store_->Sample(f, 20, {}, 7);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->size(), 20u);
  std::set<std::string> seen;
  for (const Puzzle& p : *s) {
    EXPECT_TRUE(std::binary_search(matching.begin(), matching.end(), p.id())) << p.id();
    EXPECT_TRUE(seen.insert(p.id()).second) << "repeated " << p.id();
    EXPECT_FALSE(p.solution_json().empty());
  }
  // Same seed, same store: the same sample.
  Result<std::vector<Puzzle>> again = store_->Sample(f, 20, {}, 7);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Ids(*again), Ids(*s));
  // Asking for more than match gives every match once; excluded ids never come.
  std::unordered_set<std::string> exclude(matching.begin(), matching.begin() + 10);
  Result<std::vector<Puzzle>> rest = store_->Sample(f, 1000, exclude, 0);
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->size(), matching.size() - 10);
  for (const Puzzle& p : *rest) EXPECT_EQ(exclude.count(p.id()), 0u) << p.id();
  // Nothing matches: an empty sample, not an error.
  Result<std::vector<Puzzle>> none = store_->Sample(PuzzleFilter("zebra", "", ""), 5, {}, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Chi-square goodness of fit: single draws over 40 puzzles. With 39 degrees
// of freedom the 99.9th percentile is 72.05; fixed seeds keep the test
// deterministic, and the bound is loose enough for any good generator.
TEST_F(StoreQueriesTest, SampleIsUniform) {
  Add(kSn, "c-1", 0, 40);
  Add(kSd, "c-2", 0, 40);
  for (const bool selective : {false, true}) {
    PuzzleFilter f(kSn, "", "");
    // Selective: a quarter of the sudoku+sn catalog, so the rejection phase
    // misses often and the enumeration phase runs too.
    if (selective) f = PuzzleFilter("", "", "c-1");
    std::map<std::string, int> hits;
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) {
      Result<std::vector<Puzzle>> s = store_->Sample(f, 1, {}, 1000 + i);
      ASSERT_TRUE(s.ok());
      ASSERT_EQ(s->size(), 1u);
      ++hits[s->front().id()];
    }
    ASSERT_EQ(hits.size(), 40u);
    const double expected = kDraws / 40.0;
    double chi2 = 0;
    for (const auto& [id, n] : hits) chi2 += (n - expected) * (n - expected) / expected;
    EXPECT_LT(chi2, 72.05) << "selective=" << selective;
  }
}

TEST_F(StoreQueriesTest, PlaysAccumulateExactlyUnderConcurrency) {
  Add(kSn, "c-1", 0, 4);
  const std::string id = all_[0].id();
  constexpr int kThreads = 8, kPlays = 250;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPlays; ++i) {
        ASSERT_TRUE(store_->RecordPlay(id, (t + i) % 4 != 0, 2.5).ok());
      }
    });
  }
  for (auto& t : threads) t.join();
  Result<PlayCounts> counts = store_->GetPlays(id);
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->solved + counts->failed, uint64_t{kThreads * kPlays});
  EXPECT_EQ(counts->failed, uint64_t{kThreads * kPlays / 4});
  EXPECT_EQ(counts->solve_ms, counts->solved * 2500);
  Result<Puzzle> p = store_->GetPuzzle(id);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->plays().solved(), counts->solved);
  EXPECT_DOUBLE_EQ(p->plays().mean_solve_seconds(), 2.5);
  EXPECT_EQ(p->observed().plays(), uint64_t{kThreads * kPlays});
  EXPECT_EQ(store_->PlaysRecorded(), uint64_t{kThreads * kPlays});
  EXPECT_EQ(store_->RecordPlay("sn-00000000000000000000000000000000", true, 1).status().code(),
            Status::Code::kNotFound);
  EXPECT_EQ(store_->RecordPlay(id, true, -1).status().code(), Status::Code::kInvalidArgument);
}

TEST(ObservedDifficultyTest, StartsAtTheGeneratorScoreAndMovesWithPlays) {
  EXPECT_DOUBLE_EQ(Observe(0.3, {}).score, 0.3);
  EXPECT_DOUBLE_EQ(Observe(0.3, {}).solve_rate, 0.7);
  // Ten plays weigh as much as the prior: halfway to the players' rate.
  EXPECT_NEAR(Observe(0.2, {0, 10, 0}).score, 0.6, 1e-12);
  EXPECT_NEAR(Observe(0.8, {10, 0, 20000}).score, 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(Observe(0.8, {10, 0, 20000}).mean_solve_seconds, 2.0);
  // Many plays: the players decide.
  EXPECT_NEAR(Observe(0.9, {100000, 0, 0}).score, 0.0, 1e-3);
  // Out-of-range generator scores are clamped.
  EXPECT_DOUBLE_EQ(Observe(1.7, {}).score, 1.0);
}

TEST_F(StoreQueriesTest, ObservedScoreFiltersQueryAndSample) {
  Add(kSn, "c-1", 0, 100);
  // Make the ten easiest puzzles look very hard to players.
  std::vector<std::string> made_hard;
  for (const Puzzle& p : all_) {
    if (p.difficulty().score() < 0.1) {
      made_hard.push_back(p.id());
      for (int i = 0; i < 40; ++i) ASSERT_TRUE(store_->RecordPlay(p.id(), false, 0).ok());
    }
  }
  std::sort(made_hard.begin(), made_hard.end());
  PuzzleFilter f(kSn, "", "");
  f.score = std::make_pair(0.75, 1.0);
  f.use_observed = true;
  const auto expected = [&] {
    std::vector<std::string> ids = made_hard;
    for (const Puzzle& p : all_) {
      if (p.difficulty().score() >= 0.75) ids.push_back(p.id());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }();
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 8)), expected);
  Result<std::vector<Puzzle>> s = store_->Sample(f, 1000, {}, 3);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Sorted(Ids(*s)), expected);
}

TEST_F(StoreQueriesTest, CatalogSurvivesReopen) {
  Add(kSn, "c-1", 0, 50);
  Add(kSd, "c-2", 0, 30);
  const auto before = store_->LevelCounts();
  store_.reset();
  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_EQ(store_->LevelCounts(), before);
  EXPECT_EQ(store_->LevelCounts().at({kSd, "hard"}), 15u);
  Result<std::vector<Puzzle>> all = store_->Sample(PuzzleFilter{}, 500, {}, 1);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 80u);
}

// A schema 1 store (no by_score/by_created) opens, gains the indexes from its
// puzzles and answers every new query.
TEST_F(StoreQueriesTest, UpgradesASchemaOneStore) {
  Add(kSn, "c-1", 0, 120);
  store_.reset();
  testing::MoveRecordsBackToPuzzles(tmp_.Sub("db"));
  {
    testing::RawStore raw(tmp_.Sub("db"), /*with_records=*/false);
    ASSERT_TRUE(raw.status().ok());
    for (std::string_view name : keys::kAddedInV2) {
      ASSERT_TRUE(raw.db()->DropColumnFamily(raw.cf(name)).ok());
    }
    ASSERT_NO_FATAL_FAILURE(WriteSchemaVersion(raw, "1"));
  }
  ASSERT_NO_FATAL_FAILURE(Open());
  PuzzleFilter f(kSn, "", "");
  f.score = std::make_pair(0.0, 0.05);
  EXPECT_EQ(Sorted(ScanPaged(*store_, f, 4)),
            Expected([](const Puzzle& p) { return p.difficulty().score() <= 0.05; }));
  Result<std::vector<Puzzle>> all = store_->Sample(PuzzleFilter{}, 500, {}, 1);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 120u);
  store_.reset();
  testing::RawStore raw(tmp_.Sub("db"));
  ASSERT_TRUE(raw.status().ok());
  EXPECT_EQ(StoredSchemaVersion(raw), "5");
}

// A schema 2 store (with a by_family index) opens as schema 3: by_family is
// emptied and listings by family and level come from by_score.
TEST_F(StoreQueriesTest, UpgradesASchemaTwoStore) {
  Add(kSn, "c-1", 0, 60);
  Add(kSd, "c-2", 0, 20);
  store_.reset();
  testing::MoveRecordsBackToPuzzles(tmp_.Sub("db"));
  {
    testing::RawStore raw(tmp_.Sub("db"), /*with_records=*/false);
    ASSERT_TRUE(raw.status().ok());
    for (const Puzzle& p : all_) {
      const std::string key = p.family() + '\0' + p.difficulty().level() + '\0' + p.id();
      ASSERT_TRUE(raw.db()->Put(rocksdb::WriteOptions(), raw.cf(keys::kByFamilyCf), key, "").ok());
    }
    ASSERT_NO_FATAL_FAILURE(WriteSchemaVersion(raw, "2"));
  }
  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_EQ(Sorted(ScanPaged(*store_, PuzzleFilter(kSn, "hard", ""), 7)),
            Expected([](const Puzzle& p) {
              return p.family() == kSn && p.difficulty().level() == "hard";
            }));
  EXPECT_EQ(Sorted(ScanPaged(*store_, PuzzleFilter(kSd, "", ""), 7)),
            Expected([](const Puzzle& p) { return p.family() == kSd; }));
  store_.reset();
  testing::RawStore raw(tmp_.Sub("db"));
  ASSERT_TRUE(raw.status().ok());
  EXPECT_EQ(StoredSchemaVersion(raw), "5");
  std::unique_ptr<rocksdb::Iterator> it(
      raw.db()->NewIterator(rocksdb::ReadOptions(), raw.cf(keys::kByFamilyCf)));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid()) << "by_family still holds " << it->key().ToString(/*hex=*/true);
}

}  // namespace
}  // namespace foundry::storage
