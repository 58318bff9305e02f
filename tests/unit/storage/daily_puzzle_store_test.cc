// The puzzle of the day (rocks_store_daily.cc): one puzzle per (family,
// date), the same across calls, reopens and a growing family, drawn the
// same way by any store with the same puzzles, drawn again only when it was
// rolled back.
#include <set>

#include <gtest/gtest.h>

#include "store_fixture.h"

namespace foundry::storage {
namespace {

TEST_P(StoreTest, ThePuzzleOfTheDayStaysWhileTheFamilyGrows) {
  std::string first;
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 20)).ok());
    auto p = store->DailyPuzzle(kSn, "2026-03-01");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    first = p->id();
    EXPECT_EQ(p->family(), kSn);
    ASSERT_TRUE(store->Commit(Batch(kSn, "c3", 0, 200)).ok());
    p = store->DailyPuzzle(kSn, "2026-03-01");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->id(), first);
  }
  auto store = OpenOrDie();
  auto p = store->DailyPuzzle(kSn, "2026-03-01");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->id(), first);
  // Days differ from one another, and a family has its own.
  std::set<std::string> days;
  for (int d = 1; d <= 20; ++d) {
    auto q =
        store->DailyPuzzle(kSn, "2026-04-" + std::string(d < 10 ? "0" : "") + std::to_string(d));
    ASSERT_TRUE(q.ok());
    days.insert(q->id());
  }
  EXPECT_GT(days.size(), 10u) << "20 days of 220 puzzles";
  EXPECT_EQ(store->DailyPuzzle(kSd, "2026-03-01").status().code(), Status::Code::kNotFound);
}

TEST_P(StoreTest, TwoStoresWithTheSamePuzzlesPickTheSame) {
  std::string picks[2];
  for (int i = 0; i < 2; ++i) {
    auto s = Store::Open(tmp_.Sub("store" + std::to_string(i)), Options());
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->Commit(Batch(kSn, "c1", 0, 50)).ok());
    auto p = (*s)->DailyPuzzle(kSn, "2027-12-31");
    ASSERT_TRUE(p.ok());
    picks[i] = p->id();
  }
  EXPECT_EQ(picks[0], picks[1]);
}

TEST_P(StoreTest, ARolledBackPuzzleOfTheDayIsDrawnAgain) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 1)).ok());
  ASSERT_TRUE(store->Commit(Batch(kSn, "c2", 0, 1)).ok());
  auto p = store->DailyPuzzle(kSn, "2026-05-05");
  ASSERT_TRUE(p.ok());
  const std::string campaign = p->campaign_id();
  auto gone = store->RollbackCampaign(testing::MakeCampaign(campaign, kSn, 0), 0);
  ASSERT_TRUE(gone.ok() && *gone == 1u);
  auto again = store->DailyPuzzle(kSn, "2026-05-05");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_NE(again->id(), p->id());
  EXPECT_NE(again->campaign_id(), campaign);
  auto stays = store->DailyPuzzle(kSn, "2026-05-05");
  ASSERT_TRUE(stays.ok());
  EXPECT_EQ(stays->id(), again->id());
}

}  // namespace
}  // namespace foundry::storage
