// The by_draw sampling index (schema 4): Sample uniform by a chi-square test
// with and without filters, exclusions and roll-back holes; exact counts kept
// in RocksDB and read back at open; the in-place upgrade of a schema 3 store,
// including one interrupted half-way.
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "live_store_fixture.h"
#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

using foundry::v1::Puzzle;
using testing::MakePuzzle;

constexpr char kSn[] = "secret-number";
constexpr char kSd[] = "sudoku";

// The chi-square value a fit exceeds with probability 0.001 (Wilson-Hilferty).
double ChiSquareCritical(int df) {
  const double z = 3.090;
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1 - a + z * std::sqrt(a), 3);
}

class DrawIndexTest : public testing::LiveStoreTest {
 protected:
  std::map<std::pair<std::string, std::string>, uint64_t> ExpectedLevelCounts() const {
    std::map<std::pair<std::string, std::string>, uint64_t> counts;
    for (const auto& [id, p] : live_) ++counts[{p.family(), p.difficulty().level()}];
    return counts;
  }

  // Draws `draws` samples of `n` and checks, by chi-square, that every
  // puzzle that matches `keep` and is not excluded is included equally
  // often (and no other ever). Prints the figure.
  template <typename Pred>
  void ExpectUniform(const char* name, const PuzzleFilter& f, size_t n, int draws, Pred keep,
                     const std::unordered_set<std::string>& exclude = {}) {
    std::set<std::string> matching;
    for (const auto& [id, p] : live_) {
      if (keep(p) && exclude.count(id) == 0) matching.insert(id);
    }
    ASSERT_GT(matching.size(), n);
    std::map<std::string, int> hits;
    for (int i = 0; i < draws; ++i) {
      Result<std::vector<Puzzle>> s = store_->Sample(f, n, exclude, 7000 + i);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      ASSERT_EQ(s->size(), n);
      std::set<std::string> distinct;
      for (const Puzzle& p : *s) {
        ASSERT_TRUE(matching.count(p.id())) << name << ": " << p.id() << " should not be drawn";
        ASSERT_TRUE(distinct.insert(p.id()).second) << name << ": " << p.id() << " twice";
        ++hits[p.id()];
      }
    }
    const double expected = static_cast<double>(draws) * n / matching.size();
    double chi2 = 0;
    for (const std::string& id : matching) {
      const double d = hits[id] - expected;
      chi2 += d * d / expected;
    }
    const int df = static_cast<int>(matching.size()) - 1;
    std::printf(
        "chi-square %-34s %4zu puzzles, n=%zu, %d draws: %.1f (df %d, p=0.001 bound %.1f)\n", name,
        matching.size(), n, draws, chi2, df, ChiSquareCritical(df));
    EXPECT_LT(chi2, ChiSquareCritical(df)) << name;
  }

  // Turns the store into what a schema 3 build leaves: no by_draw column
  // family, no draw counters, empty by_created values, version "3", the
  // records under their ids.
  void MakeSchemaThree() {
    store_.reset();
    testing::MoveRecordsBackToPuzzles(tmp_.Sub("db"));
    testing::RawStore raw(tmp_.Sub("db"), /*with_records=*/false);
    ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
    rocksdb::WriteBatch wb;
    std::unique_ptr<rocksdb::Iterator> it(
        raw.db()->NewIterator(rocksdb::ReadOptions(), raw.cf(keys::kByCreatedCf)));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      ASSERT_TRUE(wb.Put(raw.cf(keys::kByCreatedCf), it->key(), "").ok());
    ASSERT_TRUE(wb.DeleteRange(raw.cf(keys::kDefaultCf), std::string(keys::kDrawGroupsBegin),
                               std::string(keys::kDrawGroupsEnd))
                    .ok());
    ASSERT_TRUE(wb.Put(raw.cf(keys::kDefaultCf), "schema_version", "3").ok());
    ASSERT_TRUE(raw.db()->Write(rocksdb::WriteOptions(), &wb).ok());
    ASSERT_TRUE(raw.db()->DropColumnFamily(raw.cf(keys::kByDrawCf)).ok());
  }

  std::string SchemaVersion() {
    store_.reset();
    testing::RawStore raw(tmp_.Sub("db"));
    EXPECT_TRUE(raw.status().ok());
    std::string v;
    EXPECT_TRUE(
        raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &v).ok());
    return v;
  }

  // Every puzzle drawn once by a Sample of all of them, and nothing else.
  void ExpectSampleCoversExactly() {
    Result<std::vector<Puzzle>> all = store_->Sample(PuzzleFilter{}, 1000, {}, 3);
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    std::set<std::string> got;
    for (const Puzzle& p : *all) EXPECT_TRUE(got.insert(p.id()).second) << p.id();
    std::set<std::string> want;
    for (const auto& [id, p] : live_) want.insert(id);
    EXPECT_EQ(got, want);
  }
};

TEST_F(DrawIndexTest, SampleIsUniformWithFiltersExclusionsAndHoles) {
  Add(kSn, "c-1", 0, 60);
  Add(kSd, "c-2", 0, 30);
  Add(kSn, "c-3", 0, 40);
  Add(kSn, "c-1", 60, 40);
  constexpr int kDraws = 12000;
  auto any = [](const Puzzle&) { return true; };
  ExpectUniform("no filter", PuzzleFilter{}, 1, kDraws, any);
  ExpectUniform("no filter, 5 at a time", PuzzleFilter{}, 5, kDraws / 5, any);
  ExpectUniform("family", PuzzleFilter(kSn, "", ""), 1, kDraws,
                [](const Puzzle& p) { return p.family() == kSn; });
  ExpectUniform("family + level", PuzzleFilter(kSn, "hard", ""), 1, kDraws, [](const Puzzle& p) {
    return p.family() == kSn && p.difficulty().level() == "hard";
  });
  PuzzleFilter score(kSn, "", "");
  score.score = std::make_pair(0.2, 0.59);
  ExpectUniform("family + score range", score, 1, kDraws, [](const Puzzle& p) {
    return p.family() == kSn && p.difficulty().score() >= 0.2 && p.difficulty().score() <= 0.59;
  });
  PuzzleFilter created;
  created.created_after_unix_ms = 1700000000010;
  created.created_before_unix_ms = 1700000000050;
  ExpectUniform("created range, all families", created, 1, kDraws, [](const Puzzle& p) {
    return p.created_unix_ms() >= 1700000000010 && p.created_unix_ms() < 1700000000050;
  });
  ExpectUniform("campaign", PuzzleFilter("", "", "c-3"), 3, kDraws / 3,
                [](const Puzzle& p) { return p.campaign_id() == "c-3"; });
  // Selective: 5 of 170 puzzles match, so the 64 draws find fewer than two
  // in about 40% of the samples and the enumeration finishes those. Every
  // pair must be equally likely: a chi-square over the 10 pairs.
  PuzzleFilter narrow("", "", "c-3");
  narrow.score = std::make_pair(0.0, 0.04);
  std::map<std::set<std::string>, int> pairs;
  constexpr int kPairDraws = 5000;
  for (int i = 0; i < kPairDraws; ++i) {
    Result<std::vector<Puzzle>> s = store_->Sample(narrow, 2, {}, 9000 + i);
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(s->size(), 2u);
    for (const Puzzle& p : *s)
      ASSERT_TRUE(p.campaign_id() == "c-3" && p.difficulty().score() <= 0.04);
    ++pairs[{s->at(0).id(), s->at(1).id()}];
  }
  ASSERT_EQ(pairs.size(), 10u);
  double chi2 = 0;
  for (const auto& [pair, hits] : pairs)
    chi2 += (hits - kPairDraws / 10.0) * (hits - kPairDraws / 10.0) / (kPairDraws / 10.0);
  std::printf("chi-square %-34s   10 pairs, n=2, %d draws: %.1f (df 9, p=0.001 bound %.1f)\n",
              "campaign + score (selective)", kPairDraws, chi2, ChiSquareCritical(9));
  EXPECT_LT(chi2, ChiSquareCritical(9));
  std::unordered_set<std::string> exclude;
  for (const auto& [id, p] : live_) {
    if (p.family() == kSn && p.index() % 3 == 0) exclude.insert(id);
  }
  ExpectUniform(
      "family, a third excluded", PuzzleFilter(kSn, "", ""), 2, kDraws / 2,
      [](const Puzzle& p) { return p.family() == kSn; }, exclude);

  // Holes: roll back the end of c-1 (40 of its 100) and draw again.
  Rollback(kSn, "c-1", 60);
  ExpectUniform("family after a roll-back", PuzzleFilter(kSn, "", ""), 1, kDraws,
                [](const Puzzle& p) { return p.family() == kSn; });
  ExpectUniform(
      "family + level after a roll-back", PuzzleFilter(kSn, "easy", ""), 2, kDraws / 2,
      [](const Puzzle& p) { return p.family() == kSn && p.difficulty().level() == "easy"; });
}

TEST_F(DrawIndexTest, SampleOfMoreThanMatchGivesEveryMatchOnce) {
  Add(kSn, "c-1", 0, 30);
  Rollback(kSn, "c-1", 20);
  ExpectSampleCoversExactly();
  Result<std::vector<Puzzle>> none = store_->Sample(PuzzleFilter("chess", "", ""), 5, {}, 1);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(DrawIndexTest, CountsAreExactThroughCommitsRollbacksAndReopens) {
  Add(kSn, "c-1", 0, 25);
  Add(kSd, "c-2", 0, 8);
  EXPECT_EQ(store_->LevelCounts(), ExpectedLevelCounts());
  Rollback(kSn, "c-1", 10);
  Add(kSn, "c-1", 10, 3);
  EXPECT_EQ(store_->LevelCounts(), ExpectedLevelCounts());
  Reopen();
  EXPECT_EQ(store_->LevelCounts(), ExpectedLevelCounts());
  EXPECT_EQ(store_->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSd, 8}, {kSn, 13}}));
  ExpectSampleCoversExactly();
}

TEST_F(DrawIndexTest, UpgradesASchemaThreeStoreInPlace) {
  Add(kSn, "c-1", 0, 50);
  Add(kSd, "c-2", 0, 20);
  Rollback(kSn, "c-1", 40);
  const auto counts = ExpectedLevelCounts();
  MakeSchemaThree();
  Reopen();
  EXPECT_EQ(store_->LevelCounts(), counts);
  ExpectSampleCoversExactly();
  // The upgraded store keeps working: commits, roll-backs, counts.
  Add(kSn, "c-1", 40, 5);
  Rollback(kSn, "c-1", 30);
  EXPECT_EQ(store_->LevelCounts(), ExpectedLevelCounts());
  ExpectSampleCoversExactly();
  EXPECT_EQ(SchemaVersion(), "5");
}

TEST_F(DrawIndexTest, AnInterruptedUpgradeIsRedoneFromTheStart) {
  Add(kSn, "c-1", 0, 30);
  Add(kSd, "c-2", 0, 10);
  MakeSchemaThree();
  {
    // What a crash half-way leaves: by_draw created and partly written (here
    // with entries that match nothing real), wrong counters, version 3.
    auto s = RocksStore::Open(tmp_.Sub("db"), StoreOptions{});  // a first, complete upgrade
    ASSERT_TRUE(s.ok());
  }
  {
    testing::RawStore raw(tmp_.Sub("db"));
    ASSERT_TRUE(raw.status().ok());
    rocksdb::WriteBatch wb;
    ASSERT_TRUE(wb.Put(raw.cf(keys::kByDrawCf), keys::DrawKey(kSn, "easy", 999),
                       keys::EncodeDrawValue(0.5, 1, "c-x", "sn-bogus"))
                    .ok());
    ASSERT_TRUE(wb.Put(raw.cf(keys::kDefaultCf), keys::DrawGroupKey(kSn, "easy"),
                       keys::EncodeDrawCounters(1000, 1000))
                    .ok());
    ASSERT_TRUE(wb.Put(raw.cf(keys::kDefaultCf), "schema_version", "3").ok());
    ASSERT_TRUE(raw.db()->Write(rocksdb::WriteOptions(), &wb).ok());
  }
  testing::MoveRecordsBackToPuzzles(tmp_.Sub("db"));
  Reopen();
  EXPECT_EQ(store_->LevelCounts(), ExpectedLevelCounts());
  ExpectSampleCoversExactly();
  EXPECT_EQ(SchemaVersion(), "5");
}

TEST_F(DrawIndexTest, OpenReadsCountersNotPuzzles) {
  Add(kSn, "c-1", 0, 12);
  store_.reset();
  {
    // Counters that disagree with the puzzles stored: Open believes them,
    // which shows that it reads them instead of counting.
    testing::RawStore raw(tmp_.Sub("db"));
    ASSERT_TRUE(raw.status().ok());
    ASSERT_TRUE(raw.db()
                    ->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf),
                          keys::DrawGroupKey(kSn, "easy"), keys::EncodeDrawCounters(6, 5))
                    .ok());
  }
  Reopen();
  EXPECT_EQ(store_->LevelCounts().at({kSn, "easy"}), 5u);
  EXPECT_EQ(store_->LevelCounts().at({kSn, "hard"}), 6u);
}

}  // namespace
}  // namespace foundry::storage
