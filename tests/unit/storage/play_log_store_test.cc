// What the store keeps of each play with a player and of scored answers
// (rocks_store_play_log.cc): plays of puzzles opened by id are counted but
// not rated; the play records (ScanPlays) in recording order per player,
// their filters and their seq across a reopen; each puzzle's best scored
// answer, the highest and first, written with the play or not at all.
#include <gtest/gtest.h>

#include "store_fixture.h"

namespace foundry::storage {
namespace {

RatingModel FakeModel() { return FakeRatingModel(false); }

PlayerPlay Judged(const std::string& id, const std::string& player, bool solved,
                  std::optional<double> score = std::nullopt) {
  PlayerPlay p = JudgedPlay(id, player, solved);
  if (score) p.score = PlayScore{*score, 10, 12, 15};
  return p;
}

std::vector<foundry::v1::PlayRecord> Plays(Store& store, const std::string& player = "",
                                           const std::string& family = "", uint64_t limit = 0) {
  std::vector<foundry::v1::PlayRecord> out;
  Status s = store.ScanPlays(player, family, limit, [&](const foundry::v1::PlayRecord& r) {
    out.push_back(r);
    return true;
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST_P(StoreTest, APuzzleOpenedByIdIsPlayedUnratedAServedOneIsRated) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 3)).ok());
  const RatingModel model = FakeModel();
  const std::string a = testing::MakeId(kSn, "c1", 0);  // 1000: the nearest to 900
  // Opened by id: counted in the player's plays, no rating moves.
  auto r = store->RecordPlayerPlay(Judged(a, "ann", true), model);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->rated());
  EXPECT_TRUE(r->opened_by_id());
  EXPECT_EQ(r->player().rating(), 1500);
  EXPECT_EQ(r->player().plays(), 1u);
  EXPECT_EQ(r->player_rating_change(), 0);
  EXPECT_EQ(r->puzzle_rating_change(), 0);
  EXPECT_EQ(r->judged_plays(), 1u) << "the puzzle's judged count still counts it";
  // Served by NextPuzzle: rated.
  auto served = store->NextPuzzle("bob", kSn, 900, model);
  ASSERT_TRUE(served.ok());
  ASSERT_EQ(served->id(), a);
  r = store->RecordPlayerPlay(Judged(a, "bob", false), model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->rated());
  EXPECT_FALSE(r->opened_by_id());
  EXPECT_EQ(r->player().rating(), 1400);
  // The puzzle of the day of a day the play names is served to everyone.
  auto daily = store->DailyPuzzle(kSn, "2026-05-02");
  ASSERT_TRUE(daily.ok());
  PlayerPlay of_the_day = Judged(daily->id(), "cid", true);
  of_the_day.daily_days = {"2026-05-03", "2026-05-02"};
  r = store->RecordPlayerPlay(of_the_day, model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->rated());
  EXPECT_FALSE(r->opened_by_id());
  // ... but not on another day.
  PlayerPlay late = Judged(daily->id(), "dan", true);
  late.daily_days = {"2026-05-04", "2026-05-03"};
  r = store->RecordPlayerPlay(late, model);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->rated());
  EXPECT_TRUE(r->opened_by_id());
  // The coordinator's --rate-unserved-plays: rated.
  RatingModel lenient = model;
  lenient.rate_unserved = true;
  r = store->RecordPlayerPlay(Judged(a, "eve", true), lenient);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->rated());
  EXPECT_TRUE(r->opened_by_id());
}

// The coordinator hands the store the record it judged; the store then reads
// the player's figures and the days' puzzles in its one batch of lookups.
// The decisions must be those of a play without the record.
TEST_P(StoreTest, APlayWithItsRecordHandedOverIsDecidedTheSame) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 3)).ok());
  const RatingModel model = FakeModel();
  const std::string a = testing::MakeId(kSn, "c1", 0), b = testing::MakeId(kSn, "c1", 1);
  const auto with_record = [&](const std::string& id, const std::string& player, bool solved,
                               const std::string& record_id) {
    PlayerPlay p = Judged(id, player, solved);
    auto record = store->GetPuzzleWithoutPlays(record_id);
    EXPECT_TRUE(record.ok()) << record.status().ToString();
    if (record.ok()) p.record = *record;
    return p;
  };
  auto r = store->RecordPlayerPlay(with_record(a, "ann", true, a), model);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->rated());
  EXPECT_TRUE(r->opened_by_id());
  EXPECT_EQ(r->player().plays(), 1u);
  auto served = store->NextPuzzle("bob", kSn, 900, model);
  ASSERT_TRUE(served.ok());
  ASSERT_EQ(served->id(), a);
  r = store->RecordPlayerPlay(with_record(a, "bob", false, a), model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->rated());
  EXPECT_EQ(r->player().rating(), 1400);
  // The player's figures were read with the record handed over: they add up.
  r = store->RecordPlayerPlay(with_record(b, "bob", true, b), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->player().plays(), 2u);
  EXPECT_EQ(r->player().solves(), 1u);
  EXPECT_EQ(r->player().rating(), 1400) << "b was opened by id: not rated";
  // The puzzle of the day, on its day and not on another.
  auto daily = store->DailyPuzzle(kSn, "2026-05-02");
  ASSERT_TRUE(daily.ok());
  PlayerPlay of_the_day = with_record(daily->id(), "cid", true, daily->id());
  of_the_day.daily_days = {"2026-05-03", "2026-05-02"};
  r = store->RecordPlayerPlay(of_the_day, model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->rated());
  PlayerPlay late = with_record(daily->id(), "dan", true, daily->id());
  late.daily_days = {"2026-05-04", "2026-05-03"};
  r = store->RecordPlayerPlay(late, model);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->rated());
  // A record of another puzzle is not taken for the play's: the store reads
  // the right one (its judged count is the play's puzzle's, not b's).
  r = store->RecordPlayerPlay(with_record(a, "eve", true, b), model);
  ASSERT_TRUE(r.ok());
  const uint64_t daily_plays = daily->id() == a ? 2 : 0;  // cid's and dan's
  EXPECT_EQ(r->judged_plays(), 3u + daily_plays) << "a was judged by ann, bob and now eve";
}

TEST_P(StoreTest, EveryPlayWithAPlayerIsRecordedInOrderAndSurvivesReopen) {
  const RatingModel model = FakeModel();
  const std::string a = testing::MakeId(kSn, "c1", 0), b = testing::MakeId(kSn, "c1", 1);
  const std::string z = testing::MakeId(kSd, "c2", 0);
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 2)).ok());
    ASSERT_TRUE(store->Commit(Batch(kSd, "c2", 0, 1)).ok());
    ASSERT_TRUE(store->RecordPlayerPlay(Judged(b, "ann", false), model).ok());
    PlayerPlay claimed = Judged(a, "bob", true);
    claimed.judged = false;
    claimed.play_id = "claim-1";
    ASSERT_TRUE(store->RecordPlayerPlay(claimed, model).ok());
    ASSERT_TRUE(store->RecordPlayerPlay(claimed, model)->replayed());  // counted once
    PlayerPlay nobody = Judged(a, "", true);
    ASSERT_TRUE(store->RecordPlayerPlay(nobody, model).ok());  // no player: no record
  }
  auto store = OpenOrDie();
  ASSERT_TRUE(store->RecordPlayerPlay(Judged(z, "ann", true), model).ok());
  ASSERT_TRUE(store->RecordPlayerPlay(Judged(a, "ann", true), model).ok());
  const auto all = Plays(*store);
  ASSERT_EQ(all.size(), 4u);
  // Player by player, in recording order within a player; seq goes on
  // after the reopen.
  EXPECT_EQ(all[0].player_id(), "ann");
  EXPECT_EQ(all[0].puzzle_id(), b);
  EXPECT_EQ(all[0].seq(), 1u);
  EXPECT_TRUE(all[0].judged());
  EXPECT_FALSE(all[0].solved());
  EXPECT_EQ(all[0].answer(), "908");
  EXPECT_EQ(all[0].seconds(), 2);
  EXPECT_EQ(all[0].family(), kSn);
  EXPECT_TRUE(all[0].opened_by_id());
  EXPECT_GT(all[0].recorded_unix_ms(), 0);
  EXPECT_EQ(all[1].puzzle_id(), z);
  EXPECT_EQ(all[1].seq(), 3u);
  EXPECT_EQ(all[1].family(), kSd);
  EXPECT_EQ(all[2].puzzle_id(), a);
  EXPECT_EQ(all[2].seq(), 4u);
  EXPECT_EQ(all[3].player_id(), "bob");
  EXPECT_EQ(all[3].seq(), 2u);
  EXPECT_FALSE(all[3].judged());
  EXPECT_TRUE(all[3].solved());
  EXPECT_FALSE(all[3].has_answer());
  EXPECT_EQ(all[3].play_id(), "claim-1");
  EXPECT_FALSE(all[3].has_answer_score());
  // Filters and limit.
  EXPECT_EQ(Plays(*store, "ann").size(), 3u);
  EXPECT_EQ(Plays(*store, "an").size(), 0u) << "a player id is not a prefix";
  EXPECT_EQ(Plays(*store, "", kSd).size(), 1u);
  EXPECT_EQ(Plays(*store, "ann", kSn).size(), 2u);
  EXPECT_EQ(Plays(*store, "", "", 3).size(), 3u);
  EXPECT_EQ(
      store->ScanPlays(std::string("a\0b", 3), "", 0, [](const auto&) { return true; }).code(),
      Status::Code::kInvalidArgument);
}

TEST_P(StoreTest, TheBestScoredAnswerIsKeptTheHighestAndTheFirst) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 2)).ok());
  const RatingModel model = FakeModel();
  const std::string a = testing::MakeId(kSn, "c1", 0);
  EXPECT_FALSE(store->GetBestSolution(a)->has_value());
  auto r = store->RecordPlayerPlay(Judged(a, "ann", false, 8), model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->new_best());
  EXPECT_EQ(r->answer_score().score(), 8);
  EXPECT_EQ(r->answer_score().target_score(), 10);
  EXPECT_EQ(r->answer_score().greedy_score(), 12);
  EXPECT_EQ(r->answer_score().best_score(), 15);
  EXPECT_EQ(r->best_solution().player_id(), "ann");
  // Higher wins; equal keeps the first; lower leaves it.
  PlayerPlay better = Judged(a, "bob", true, 13);
  better.answer = "c0r1 c2r3";
  better.play_id = "bob-1";
  r = store->RecordPlayerPlay(better, model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->new_best());
  r = store->RecordPlayerPlay(Judged(a, "cid", true, 13), model);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->new_best());
  EXPECT_EQ(r->best_solution().player_id(), "bob");
  r = store->RecordPlayerPlay(Judged(a, "dan", true, 11), model);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->new_best());
  // A replay of the best play's play_id changes nothing.
  ASSERT_TRUE(store->RecordPlayerPlay(better, model)->replayed());
  // A play without a player may hold the best too (no play record).
  r = store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c1", 1), "", true, 14), model);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->new_best());
  EXPECT_EQ(r->best_solution().play_seq(), 0u);

  auto best = store->GetBestSolution(a);
  ASSERT_TRUE(best.ok() && best->has_value());
  EXPECT_EQ((*best)->player_id(), "bob");
  EXPECT_EQ((*best)->answer(), "c0r1 c2r3");
  EXPECT_EQ((*best)->play_id(), "bob-1");
  EXPECT_EQ((*best)->score().score(), 13);
  const auto plays = Plays(*store);
  ASSERT_EQ(plays.size(), 4u);
  int best_now = 0;
  for (const auto& p : plays) {
    EXPECT_TRUE(p.has_answer_score());
    EXPECT_EQ(p.new_best(), p.player_id() == "ann" || p.player_id() == "bob") << p.player_id();
    EXPECT_EQ(p.best_now(), p.player_id() == "bob") << p.player_id();
    best_now += p.best_now();
  }
  EXPECT_EQ(best_now, 1);
}

}  // namespace
}  // namespace foundry::storage
