// The store's players (rocks_store_players.cc, player_keys.h): idempotent
// and atomic plays, first-attempt-only ratings, the by_rating index moving
// with ratings, and NextPuzzle's choice, no repeats and exhaustion.
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "storage/player_keys.h"
#include "store_fixture.h"

namespace foundry::storage {
namespace {

RatingModel FakeModel() { return FakeRatingModel(true); }

PlayerPlay Judged(const std::string& id, const std::string& player, bool solved,
                  const std::string& play_id = "") {
  PlayerPlay p = JudgedPlay(id, player, solved);
  p.play_id = play_id;
  return p;
}

// Two fresh players, "cat" and "dan", aiming at `target` get the same `n`
// puzzles in the same order (as K = 1 promises).
void ExpectInStep(Store& store, double target, const RatingModel& model, int n) {
  for (int i = 0; i < n; ++i) {
    auto c = store.NextPuzzle("cat", kSn, target, model);
    auto d = store.NextPuzzle("dan", kSn, target, model);
    ASSERT_TRUE(c.ok() && d.ok());
    EXPECT_EQ(c->id(), d->id()) << i;
  }
}

TEST(PlayerKeysTest, RoundTripsAndOrdersByRating) {
  const PlayerFigures f{{1612.5, 80.25, 0.0601}, 7, 3};
  auto back = player_keys::DecodePlayer(player_keys::EncodePlayer(f));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->rating.rating, 1612.5);
  EXPECT_EQ(back->rating.deviation, 80.25);
  EXPECT_EQ(back->plays, 7u);
  EXPECT_EQ(back->solves, 3u);
  EXPECT_FALSE(player_keys::DecodePlayer("short"));
  EXPECT_LT(player_keys::ByRatingKey("sudoku", 900, "b"),
            player_keys::ByRatingKey("sudoku", 1400, "a"));
  EXPECT_LT(player_keys::ByRatingKey("sudoku", -5, "z"),
            player_keys::ByRatingKey("sudoku", 3, "a"));
  const std::string prefix = player_keys::ByRatingPrefix("sudoku");
  // The parsed id views the key: the key must outlive it.
  const std::string key = player_keys::ByRatingKey("sudoku", 1234.5, "sd-x");
  auto parsed = player_keys::ParseByRatingKey(prefix, key);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->first, 1234.5);
  EXPECT_EQ(parsed->second, "sd-x");
  const std::string record = player_keys::EncodePlayIdRecord("fp", "resp");
  auto rec = player_keys::DecodePlayIdRecord(record);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->first, "fp");
  EXPECT_EQ(rec->second, "resp");
}

TEST_P(StoreTest, PlayIdCountsOnceAndRefusesAnotherPlay) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 3)).ok());
  const std::string id = testing::MakeId(kSn, "c1", 0);
  const RatingModel model = FakeModel();
  auto first = store->RecordPlayerPlay(Judged(id, "ann", true, "p1"), model);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->rated());
  EXPECT_EQ(first->player().rating(), 1600);
  auto again = store->RecordPlayerPlay(Judged(id, "ann", true, "p1"), model);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->replayed());
  EXPECT_EQ(again->player().rating(), 1600);
  auto other = store->RecordPlayerPlay(Judged(id, "ann", false, "p1"), model);
  EXPECT_EQ(other.status().code(), Status::Code::kAlreadyExists);
  auto other_player = store->RecordPlayerPlay(Judged(id, "bea", true, "p1"), model);
  EXPECT_EQ(other_player.status().code(), Status::Code::kAlreadyExists);
  auto p = store->GetPuzzle(id);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->plays().solved() + p->plays().failed(), 1u);
  auto ann = store->GetPlayer("ann", kSn);
  ASSERT_TRUE(ann.ok() && ann->has_value());
  EXPECT_EQ((*ann)->plays, 1u);
  auto bea = store->GetPlayer("bea", kSn);
  ASSERT_TRUE(bea.ok());
  EXPECT_FALSE(bea->has_value());
  EXPECT_EQ(store->RecordPlayerPlay(Judged("sn-missing", "ann", true), model).status().code(),
            Status::Code::kNotFound);
}

TEST_P(StoreTest, OnlyTheFirstAttemptIsRatedAndRatingsSurviveReopen) {
  const std::string id = testing::MakeId(kSn, "c1", 50);  // score 0.5: starts at 1500
  const RatingModel model = FakeModel();
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 50, 1)).ok());
    auto r = store->RecordPlayerPlay(Judged(id, "cid", false), model);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->rated());
    EXPECT_EQ(r->player().rating(), 1400);
    EXPECT_EQ(r->puzzle_rating(), 1600);
    r = store->RecordPlayerPlay(Judged(id, "cid", true), model);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->rated());
    EXPECT_EQ(r->player().rating(), 1400);
    EXPECT_EQ(r->player().plays(), 2u);
    EXPECT_EQ(r->player().solves(), 1u);
    EXPECT_EQ(r->puzzle_rating(), 1600);
    EXPECT_EQ(r->judged_plays(), 2u);
  }
  auto store = OpenOrDie();
  auto cid = store->GetPlayer("cid", kSn);
  ASSERT_TRUE(cid.ok() && cid->has_value());
  EXPECT_EQ((*cid)->rating.rating, 1400);
  auto r = store->RecordPlayerPlay(Judged(id, "dan", true), model);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->puzzle_rating(), 1500);  // 1600 after cid, -100 after dan's solve
}

TEST_P(StoreTest, NextPuzzleTakesTheNearestAndNeverRepeats) {
  auto store = OpenOrDie();
  // Scores 0.00 .. 0.09: initial ratings 1000, 1010, ... 1090.
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 10)).ok());
  ASSERT_TRUE(store->Commit(Batch(kSd, "c2", 0, 3)).ok());
  const RatingModel model = FakeModel();
  auto p = store->NextPuzzle("eve", kSn, 1042, model);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 4));
  // Re-rate puzzle 9 (1090) down to 990 with a failure... of the player:
  // the puzzle goes up by 100 on a failure, so use a solve: 1090 -> 990.
  ASSERT_TRUE(
      store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c1", 9), "zed", true), model).ok());
  p = store->NextPuzzle("eve", kSn, 985, model);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 9)) << "found through by_rating at its new rating";
  std::set<std::string> seen = {testing::MakeId(kSn, "c1", 4), testing::MakeId(kSn, "c1", 9)};
  // A puzzle eve played is not served either.
  ASSERT_TRUE(
      store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c1", 0), "eve", true), model).ok());
  seen.insert(testing::MakeId(kSn, "c1", 0));
  for (int i = 0; i < 7; ++i) {
    p = store->NextPuzzle("eve", kSn, 1040, model);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(p->family(), kSn);
    EXPECT_TRUE(seen.insert(p->id()).second) << p->id();
  }
  p = store->NextPuzzle("eve", kSn, 1040, model);
  EXPECT_EQ(p.status().code(), Status::Code::kResourceExhausted);
  EXPECT_NE(p.status().message().find(kSn), std::string::npos);
  // One puzzle at one rating only: puzzle 9's old index entry is gone.
  EXPECT_TRUE(store->NextPuzzle("fay", kSn, 1090, model).ok());
  EXPECT_TRUE(store->NextPuzzle("eve", kSd, 1500, model).ok());
}

// A rolled-back puzzle keeps its rating and by_rating entry (its plays
// stay), but is never served: the draw drops it and takes the next nearest.
TEST_P(StoreTest, NextPuzzleNeverServesARolledBackPuzzle) {
  auto store = OpenOrDie();
  // Scores 0.00 .. 0.09: initial ratings 1000 .. 1090.
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 10)).ok());
  RatingModel model = FakeModel();
  // Puzzles 8 and 9 solved down to 980 and 990: in by_rating, nearest 985.
  for (int i : {8, 9}) {
    ASSERT_TRUE(
        store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c1", i), "zed", true), model).ok());
  }
  auto gone = store->RollbackCampaign(MakeCampaign("c1", kSn, 5), 5);
  ASSERT_TRUE(gone.ok()) << gone.status().ToString();
  ASSERT_EQ(*gone, 5u);
  model.next_nearest = 1;
  auto p = store->NextPuzzle("ann", kSn, 985, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 0)) << "the nearest puzzle still stored";
  model.next_nearest = 4;
  std::set<std::string> served = {p->id()};
  for (int i = 0; i < 4; ++i) {
    p = store->NextPuzzle("ann", kSn, 985, model);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status().ToString();
    EXPECT_TRUE(served.insert(p->id()).second) << p->id();
  }
  std::set<std::string> kept;
  for (int i = 0; i < 5; ++i) kept.insert(testing::MakeId(kSn, "c1", i));
  EXPECT_EQ(served, kept);
  EXPECT_EQ(store->NextPuzzle("ann", kSn, 985, model).status().code(),
            Status::Code::kResourceExhausted);
}

// next_nearest K > 1: each call draws among the K nearest unplayed puzzles,
// so two players at one rating part ways, yet each still never repeats and
// is told when the family is exhausted; K = 1 (above) always takes the
// nearest.
TEST_P(StoreTest, NextPuzzleDrawsAmongTheKNearestAndNeverRepeats) {
  auto store = OpenOrDie();
  // Scores 0.00 .. 0.39: initial ratings 1000, 1010, ... 1390.
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 40)).ok());
  RatingModel model = FakeModel();
  model.next_nearest = 4;
  // Re-rated puzzles are drawn from too: puzzle 39 (1390) solved down to 1290.
  ASSERT_TRUE(
      store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c1", 39), "zed", true), model).ok());
  // The first call of each: one of the 4 nearest 1200 — 1190, 1200, 1210
  // and one of 1180 and 1220, which tie.
  const std::set<std::string> first_four = {
      testing::MakeId(kSn, "c1", 18), testing::MakeId(kSn, "c1", 19),
      testing::MakeId(kSn, "c1", 20), testing::MakeId(kSn, "c1", 21),
      testing::MakeId(kSn, "c1", 22)};
  std::map<std::string, std::vector<std::string>> served;
  for (int i = 0; i < 40; ++i) {
    for (const std::string player : {"amy", "bob"}) {
      auto p = store->NextPuzzle(player, kSn, 1200, model);
      ASSERT_TRUE(p.ok()) << player << " " << i << ": " << p.status().ToString();
      if (i == 0) {
        EXPECT_TRUE(first_four.contains(p->id())) << p->id();
      }
      served[player].push_back(p->id());
    }
  }
  for (const auto& [player, ids] : served) {
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 40u) << player;
    auto p = store->NextPuzzle(player, kSn, 1200, model);
    EXPECT_EQ(p.status().code(), Status::Code::kResourceExhausted) << player;
  }
  // The same 40 in a different order: with 4 to choose from at every
  // step, the same order twice has odds far below 4^-20.
  EXPECT_NE(served["amy"], served["bob"]);
  // K = 1: two fresh players at one rating walk the same puzzles.
  model.next_nearest = 1;
  ExpectInStep(*store, 1200, model, 10);
}

// Generator scores take few values, so many puzzles share one initial
// rating. With K > 1 fresh players of that rating start at random places in
// the group, not all on its first ids; a player still gets every puzzle of
// both groups once (each walk goes round its group); K = 1 keeps id order.
TEST_P(StoreTest, NextPuzzleDrawsAcrossAGroupOfEqualRatings) {
  auto store = OpenOrDie();
  CommitBatch b = Batch(kSn, "c1", 0, 60);
  for (int i = 0; i < 60; ++i) {  // 30 at 1500, 30 at 1600
    b.puzzles[static_cast<size_t>(i)].mutable_difficulty()->set_score(i < 30 ? 0.5 : 0.6);
  }
  ASSERT_TRUE(store->Commit(b).ok());
  RatingModel model = FakeModel();
  model.next_nearest = 4;
  std::map<std::string, int> firsts;
  for (int player = 0; player < 100; ++player) {
    auto p = store->NextPuzzle("fresh" + std::to_string(player), kSn, 1500, model);
    ASSERT_TRUE(p.ok()) << player << ": " << p.status().ToString();
    ++firsts[p->id()];
  }
  // Taken from the group's near end, the draws would hit 4 puzzles; at
  // random places, about 29 of the 30.
  EXPECT_GE(firsts.size(), 15u);
  // Between the groups both walks enter one at random: all 60, then none.
  std::set<std::string> all;
  for (int i = 0; i < 60; ++i) {
    auto p = store->NextPuzzle("eve", kSn, 1550, model);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status().ToString();
    EXPECT_TRUE(all.insert(p->id()).second) << p->id();
  }
  EXPECT_EQ(store->NextPuzzle("eve", kSn, 1550, model).status().code(),
            Status::Code::kResourceExhausted);
  model.next_nearest = 1;
  ExpectInStep(*store, 1500, model, 5);
}

// next_new_window W: a never-judged puzzle within W of the target is served
// before nearer judged ones; with none within W, the nearest of all.
TEST_P(StoreTest, NextPuzzleServesNeverJudgedWithinTheWindowFirst) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 10)).ok());   // 1000 .. 1090
  ASSERT_TRUE(store->Commit(Batch(kSn, "c2", 20, 10)).ok());  // 1200 .. 1290
  RatingModel model = FakeModel();
  // A solve takes 103 from a puzzle, so judged ratings fall between others.
  model.rate = [](const RatingState& player, const RatingState& puzzle, bool solved) {
    RatingState p = player, z = puzzle;
    z.rating -= solved ? 103 : -103;
    return std::make_pair(p, z);
  };
  // Puzzles 20 .. 24 judged: 1097, 1107, 1117, 1127, 1137.
  for (int i = 20; i < 25; ++i) {
    ASSERT_TRUE(
        store->RecordPlayerPlay(Judged(testing::MakeId(kSn, "c2", i), "zed", true), model).ok());
  }
  model.next_nearest = 1;
  // Target 1150: the nearest is judged puzzle 24 (1137); the nearest
  // never-judged one is puzzle 9 (1090), 60 away.
  auto p = store->NextPuzzle("ann", kSn, 1150, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c2", 24));
  model.next_new_window = 70;
  p = store->NextPuzzle("bea", kSn, 1150, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c1", 9));
  model.next_new_window = 40;  // none within 40: the nearest of all
  p = store->NextPuzzle("cy", kSn, 1150, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), testing::MakeId(kSn, "c2", 24));
  model.next_new_window = -1;
  EXPECT_EQ(store->NextPuzzle("di", kSn, 1150, model).status().code(),
            Status::Code::kInvalidArgument);
}

// A player served over a thousand puzzles still never gets a repeat and is
// told when the family is exhausted; a player whose id starts with
// another's does not inherit the other's history.
TEST_P(StoreTest, NextPuzzleNeverRepeatsForALongHistory) {
  auto store = OpenOrDie();
  constexpr int kPuzzles = 1100;
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, kPuzzles)).ok());
  RatingModel model = FakeModel();
  model.next_nearest = 1;
  std::set<std::string> served;
  std::string first;
  for (int i = 0; i < kPuzzles; ++i) {
    auto p = store->NextPuzzle("ann", kSn, 1500, model);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status().ToString();
    ASSERT_TRUE(served.insert(p->id()).second) << "repeated at call " << i << ": " << p->id();
    if (i == 0) first = p->id();
  }
  auto p = store->NextPuzzle("ann", kSn, 1500, model);
  EXPECT_EQ(p.status().code(), Status::Code::kResourceExhausted);
  p = store->NextPuzzle("anna", kSn, 1500, model);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->id(), first);
}

// Concurrent plays with play_ids, each sent twice: every play counts once,
// every player's figures and the puzzle's judged count are exact.
TEST_P(StoreTest, ConcurrentPlaysWithRetriesCountEachPlayOnce) {
  auto store = OpenOrDie();
  ASSERT_TRUE(store->Commit(Batch(kSn, "c1", 0, 1)).ok());
  const std::string id = testing::MakeId(kSn, "c1", 0);
  const RatingModel model = FakeModel();
  constexpr int kThreads = 6, kPlays = 40;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPlays; ++i) {
        const PlayerPlay play = Judged(id, "p" + std::to_string(t), i % 2 == 0,
                                       "t" + std::to_string(t) + "-" + std::to_string(i));
        for (int attempt = 0; attempt < 2; ++attempt) {
          auto r = store->RecordPlayerPlay(play, model);
          ASSERT_TRUE(r.ok()) << r.status().ToString();
          EXPECT_EQ(r->replayed(), attempt == 1);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  auto p = store->GetPuzzle(id);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->plays().solved(), uint64_t{kThreads * kPlays / 2});
  EXPECT_EQ(p->plays().failed(), uint64_t{kThreads * kPlays / 2});
  for (int t = 0; t < kThreads; ++t) {
    auto f = store->GetPlayer("p" + std::to_string(t), kSn);
    ASSERT_TRUE(f.ok() && f->has_value());
    EXPECT_EQ((*f)->plays, uint64_t{kPlays});
    EXPECT_EQ((*f)->solves, uint64_t{kPlays / 2});
    EXPECT_EQ((*f)->rating.rating, 1600);  // only the first attempt (a solve) was rated
  }
}

}  // namespace
}  // namespace foundry::storage
