// The store's per-family grade -> rating mappings (rocks_store_grades.cc):
// a fitted mapping places never-judged puzzles of its family (their first
// rating and NextPuzzle's aim), a flat one still serves every puzzle once,
// and the walk over rated puzzles that a refit reads.
#include <set>

#include <gtest/gtest.h>

#include "store_fixture.h"

namespace foundry::storage {
namespace {

RatingModel FakeModel() { return FakeRatingModel(true); }

TEST_P(StoreTest, AFittedMappingPlacesItsFamilysNewPuzzles) {
  const RatingModel model = FakeModel();  // default: 1500 + 1000 (score - 0.5)
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 10)).ok());  // scores 0.00..0.09
    ASSERT_TRUE(store->Commit(Batch(kSd, "c2", 0, 10)).ok());
    auto none = store->GetGradeMapping(kSn);
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    // secret-number: 2000 + 10000 (score - 0.5): scores 0.00..0.09 sit at
    // -3000..-2100, 100 apart.
    ASSERT_TRUE(store->PutGradeMappings({{kSn, {{2000, 10000}, 12, 1234}}}).ok());
  }
  auto store = OpenOrDie();  // the mapping is stored, not kept in memory
  auto fitted = store->GetGradeMapping(kSn);
  ASSERT_TRUE(fitted.ok() && fitted->has_value());
  EXPECT_EQ((*fitted)->mapping.per_score, 10000);
  EXPECT_EQ((*fitted)->puzzles, 12u);
  EXPECT_EQ((*fitted)->fitted_unix_ms, 1234);
  auto p = store->NextPuzzle("amy", kSn, -2690, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 3)) << "-2700 is the nearest";
  // The other family keeps the default: 1040 is score 0.04.
  p = store->NextPuzzle("amy", kSd, 1041, model);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->id(), testing::MakeId(kSd, "c2", 4));
  // A first judged play starts the puzzle from the family's mapping.
  auto r = store->RecordPlayerPlay(JudgedPlay(testing::MakeId(kSn, "c1", 5), "bob", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), -2500 - 100);
  r = store->RecordPlayerPlay(JudgedPlay(testing::MakeId(kSd, "c2", 5), "bob", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), 1050 - 100);
}

// The store keeps the mappings it has read in memory: a refit while it is
// open must reach the very next NextPuzzle and first play, and a refused
// refit must leave the one in use.
TEST_P(StoreTest, ARefitTakesEffectAtOnceInAnOpenStore) {
  const RatingModel model = FakeModel();
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 10)).ok());  // scores 0.00..0.09
  // The default mapping: 1000..1090; 1031 is nearest score 0.03.
  auto p = store->NextPuzzle("amy", kSn, 1031, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 3));
  auto r = store->RecordPlayerPlay(JudgedPlay(testing::MakeId(kSn, "c1", 5), "bob", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), 1050 - 100);
  // Refit: 2000 + 10000 (score - 0.5): -3000..-2100, 100 apart.
  ASSERT_TRUE(store->PutGradeMappings({{kSn, {{2000, 10000}, 12, 1234}}}).ok());
  p = store->NextPuzzle("amy", kSn, -2790, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 2)) << "-2800 is the nearest";
  r = store->RecordPlayerPlay(JudgedPlay(testing::MakeId(kSn, "c1", 6), "bob", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), -2400 - 100);
  ASSERT_FALSE(store->PutGradeMappings({{kSn, {{1500, -1}, 1, 0}}}).ok());
  r = store->RecordPlayerPlay(JudgedPlay(testing::MakeId(kSn, "c1", 7), "bob", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), -2300 - 100) << "a refused refit changes nothing";
}

TEST_P(StoreTest, AFallingOrBrokenMappingIsRefused) {
  auto store = OpenOrDie();
  EXPECT_EQ(store->PutGradeMappings({{kSn, {{1500, -1}, 1, 0}}}).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(store->PutGradeMappings({{kSn, {{std::nan(""), 10}, 1, 0}}}).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(store->PutGradeMappings({{std::string("a\0b", 3), {{1500, 10}, 1, 0}}}).code(),
            Status::Code::kInvalidArgument);
  auto none = store->GetGradeMapping(kSn);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value()) << "a refused batch stores nothing";
}

// per_score 0: every never-judged puzzle sits at the center; NextPuzzle
// still serves each of them once and then says the family is exhausted.
TEST_P(StoreTest, AFlatMappingStillServesEveryPuzzleOnce) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 6)).ok());
  ASSERT_TRUE(store->PutGradeMappings({{kSn, {{1400, 0}, 3, 0}}}).ok());
  const RatingModel model = FakeModel();
  std::set<std::string> seen;
  for (int i = 0; i < 6; ++i) {
    auto p = store->NextPuzzle("cat", kSn, i % 2 == 0 ? 900 : 2100, model);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_TRUE(seen.insert(p->id()).second) << p->id();
  }
  EXPECT_EQ(store->NextPuzzle("cat", kSn, 1400, model).status().code(),
            Status::Code::kResourceExhausted);
}

TEST_P(StoreTest, TheWalkOverRatedPuzzlesKeepsThoseJudgedEnough) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 4)).ok());
  ASSERT_TRUE(store->Commit(Batch(kSd, "c2", 30, 1)).ok());
  const RatingModel model = FakeModel();
  const std::string a = testing::MakeId(kSn, "c1", 1), b = testing::MakeId(kSn, "c1", 2);
  const std::string c = testing::MakeId(kSd, "c2", 30);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(store->RecordPlayerPlay(JudgedPlay(a, "p" + std::to_string(i), true), model).ok());
    ASSERT_TRUE(store->RecordPlayerPlay(JudgedPlay(c, "p" + std::to_string(i), false), model).ok());
  }
  ASSERT_TRUE(store->RecordPlayerPlay(JudgedPlay(b, "p0", true), model).ok());
  // A claimed play is no judged play.
  PlayerPlay claimed = JudgedPlay(b, "p1", true);
  claimed.judged = false;
  ASSERT_TRUE(store->RecordPlayerPlay(claimed, model).ok());
  std::vector<RatedPuzzle> seen;
  ASSERT_TRUE(store->ForEachRatedPuzzle(3, [&](const RatedPuzzle& p) { seen.push_back(p); }).ok());
  ASSERT_EQ(seen.size(), 2u);
  std::sort(seen.begin(), seen.end(),
            [](const RatedPuzzle& x, const RatedPuzzle& y) { return x.family < y.family; });
  EXPECT_EQ(seen[0].id, a);
  EXPECT_EQ(seen[0].family, kSn);
  EXPECT_DOUBLE_EQ(seen[0].score, 0.01);
  EXPECT_EQ(seen[0].rating.rating, 1010 - 300);
  EXPECT_EQ(seen[0].judged_plays, 3u);
  EXPECT_EQ(seen[1].id, c);
  EXPECT_EQ(seen[1].family, kSd);
  EXPECT_EQ(seen[1].rating.rating, 1300 + 300);
  size_t all = 0;
  ASSERT_TRUE(store->ForEachRatedPuzzle(0, [&](const RatedPuzzle&) { ++all; }).ok());
  EXPECT_EQ(all, 3u);
}

}  // namespace
}  // namespace foundry::storage
