#include "console/player_desk.h"

#include <string>

#include <gtest/gtest.h>

#include "console/api_json.h"

namespace foundry::console {
namespace {

Round Served(const std::string& id, const std::string& player = "alice") {
  Round r;
  r.puzzle_id = id;
  r.family = "secret-number";
  r.player = player;
  r.source = "next";
  r.offset = 300;
  return r;
}

PlayEntry Result(const Round& r, bool solved, double before, double after) {
  PlayEntry e;
  e.puzzle_id = r.puzzle_id;
  e.family = r.family;
  e.player = r.player;
  e.source = r.source;
  e.solved = solved;
  e.rated = true;
  e.rating_before = before;
  e.rating_after = after;
  return e;
}

TEST(PlayerDeskTest, OpeningTheSamePuzzleTwiceGivesTheSameRoundAndPlayId) {
  PlayerDesk desk;
  const Round a = desk.Open(Served("sn-1"));
  EXPECT_EQ(a.play_id.rfind("console-", 0), 0u);
  EXPECT_EQ(a.play_id.size(), 8u + 32u);
  EXPECT_GT(a.served_ms, 0);
  EXPECT_EQ(desk.Open(Served("sn-1")).play_id, a.play_id);  // a double click on "Play it"
  const Round b = desk.Open(Served("sn-2"));
  EXPECT_NE(b.play_id, a.play_id);
  // Another player gets a round of their own.
  EXPECT_NE(desk.Open(Served("sn-1", "bob")).play_id, a.play_id);
  EXPECT_EQ(desk.OpenRounds().size(), 3u);
}

TEST(PlayerDeskTest, TheFirstResultIsKeptAndEnteredInTheHistoryOnce) {
  PlayerDesk desk;
  const Round r = desk.Open(Served("sn-1"));
  EXPECT_TRUE(desk.Unplayed("sn-1"));
  auto first = desk.Finish("sn-1", r.play_id, Result(r, false, 1500, 1257), "12", "42");
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(desk.Unplayed("sn-1"));
  auto second = desk.Finish("sn-1", r.play_id, Result(r, true, 1500, 1700), "42", "");
  ASSERT_TRUE(second.has_value());
  EXPECT_FALSE(second->result->solved);  // the first stands
  EXPECT_EQ(second->answer, "12");
  EXPECT_EQ(desk.History().size(), 1u);
  EXPECT_TRUE(desk.OpenRounds().empty());
  // A play_id that is not the round's finishes nothing.
  EXPECT_FALSE(desk.Finish("sn-1", "console-other", Result(r, true, 1, 2), "", "").has_value());
  EXPECT_FALSE(desk.Finish("sn-9", r.play_id, Result(r, true, 1, 2), "", "").has_value());
}

TEST(PlayerDeskTest, RoundsAndHistoryAreBounded) {
  PlayerDesk desk;
  for (size_t i = 0; i < PlayerDesk::kMaxHistory + 10; ++i) {
    const Round r = desk.Open(Served("sn-" + std::to_string(i)));
    desk.Finish(r.puzzle_id, r.play_id, Result(r, i % 2 == 0, 1500, 1500 + double(i)), "", "");
  }
  const auto history = desk.History();
  ASSERT_EQ(history.size(), PlayerDesk::kMaxHistory);
  EXPECT_EQ(history.front().puzzle_id, "sn-109");  // newest first
  EXPECT_EQ(history.back().puzzle_id, "sn-10");
  EXPECT_FALSE(desk.Find("sn-0").has_value());  // pushed out of the rounds
  EXPECT_TRUE(desk.Find("sn-109").has_value());
  for (size_t i = 0; i < PlayerDesk::kMaxRounds + 5; ++i)
    desk.Open(Served("x-" + std::to_string(i)));
  EXPECT_EQ(desk.OpenRounds().size(), PlayerDesk::kMaxRounds);
}

TEST(PlayerDeskTest, PlayerNames) {
  auto name = [](nlohmann::json body) { return PlayerNameFrom(body); };
  EXPECT_EQ(*name({{"name", "  alice "}}), "alice");
  EXPECT_EQ(*name({{"name", "Zoë 42"}}), "Zoë 42");
  EXPECT_EQ(*name({{"name", std::string(128, 'a')}}), std::string(128, 'a'));
  const auto message = [&](nlohmann::json body) { return name(body).status().message(); };
  EXPECT_EQ(message({{"name", ""}}), "the player name must not be empty");
  EXPECT_EQ(message({{"name", "   "}}), "the player name must not be empty");
  EXPECT_EQ(message({{"name", std::string(129, 'a')}}),
            "the player name must be at most 128 bytes, got 129");
  EXPECT_EQ(message({{"name", "a\nb"}}), "the player name must not contain control characters");
  EXPECT_EQ(message({{"name", 7}}), "the player name must be a string");
  EXPECT_NE(message(nlohmann::json::object()).find("give a player name"), std::string::npos);
  EXPECT_EQ(name({{"name", ""}}).status().code(), Status::Code::kInvalidArgument);
}

TEST(PlayerDeskTest, Offsets) {
  auto offset = [](nlohmann::json body) { return OffsetFrom(body); };
  EXPECT_EQ(*offset(nlohmann::json::object()), 0);
  EXPECT_EQ(*offset({{"offset", -600}}), -600);
  EXPECT_EQ(*offset({{"offset", "300"}}), 300);
  EXPECT_EQ(*offset({{"offset", ""}}), 0);
  EXPECT_EQ(*offset({{"offset", 1000}}), 1000);
  EXPECT_EQ(offset({{"offset", "abc"}}).status().message(),
            "offset must be a number -1000..1000 (below 0 easier, above 0 harder), got 'abc'");
  EXPECT_EQ(offset({{"offset", 1001}}).status().message(),
            "offset must be a number -1000..1000 (below 0 easier, above 0 harder), got 1001");
  EXPECT_FALSE(offset({{"offset", "nan"}}).ok());
  EXPECT_FALSE(offset({{"offset", "300x"}}).ok());
  EXPECT_FALSE(offset({{"offset", nlohmann::json::array()}}).ok());
}

TEST(PlayerDeskTest, UtcDates) {
  EXPECT_EQ(UtcDate(0), "1970-01-01");
  EXPECT_EQ(UtcDate(951782400000), "2000-02-29");
  EXPECT_EQ(UtcDate(951868799999), "2000-02-29");  // the last millisecond of the day
  EXPECT_EQ(UtcDate(951868800000), "2000-03-01");
}

TEST(PlayerDeskTest, ARoundsJsonShowsTheSolutionOnlyAfterAWrongAnswer) {
  PlayerDesk desk;
  const Round r = desk.Open(Served("sn-1"));
  auto open = RoundJson(r);
  EXPECT_EQ(open["played"], false);
  EXPECT_FALSE(open.contains("result"));
  EXPECT_FALSE(open.contains("solution"));
  EXPECT_FALSE(open.contains("date"));
  auto wrong = RoundJson(*desk.Finish("sn-1", r.play_id, Result(r, false, 1500, 1257), "1", "42"));
  EXPECT_EQ(wrong["played"], true);
  EXPECT_EQ(wrong["solution"], "42");
  EXPECT_EQ(wrong["answer"], "1");
  EXPECT_DOUBLE_EQ(wrong["result"]["rating_change"].get<double>(), -243);
  EXPECT_EQ(wrong["result"]["solved"], false);
  const Round r2 = desk.Open(Served("sn-2"));
  auto right = RoundJson(*desk.Finish("sn-2", r2.play_id, Result(r2, true, 1257, 1400), "7", ""));
  EXPECT_FALSE(right.contains("solution"));
}

TEST(PlayerDeskTest, APlaysEntryComesFromTheStoresFigures) {
  Round r = Served("sn-1");
  foundry::v1::RecordPlayResponse play;
  play.set_solved(true);
  play.set_rated(true);
  play.mutable_player()->set_rating(1690);
  play.mutable_player()->set_deviation(290);
  play.mutable_player()->set_plays(3);
  play.mutable_player()->set_solves(2);
  play.set_player_rating_change(190);
  play.set_puzzle_rating(1400);
  play.set_puzzle_rating_change(-35);
  const PlayEntry e = PlayEntryFrom(r, play, 12.5, 1234);
  EXPECT_DOUBLE_EQ(e.rating_before, 1500);
  EXPECT_DOUBLE_EQ(e.rating_after, 1690);
  EXPECT_EQ(e.plays, 3u);
  EXPECT_EQ(e.solves, 2u);
  EXPECT_EQ(e.offset, 300);
  const auto j = PlayEntryJson(e);
  EXPECT_DOUBLE_EQ(j["rating_change"].get<double>(), 190);
  EXPECT_DOUBLE_EQ(j["puzzle_rating_change"].get<double>(), -35);
  EXPECT_EQ(j["source"], "next");
  EXPECT_EQ(j["t_ms"], 1234);

  foundry::v1::Player p;
  p.set_family("sudoku");
  p.set_rating(1500);
  p.set_deviation(500);
  const auto fresh = PlayerJson(p);
  EXPECT_EQ(fresh["plays"], 0);
  EXPECT_DOUBLE_EQ(fresh["solve_rate"].get<double>(), 0);
  p.set_plays(4);
  p.set_solves(3);
  EXPECT_DOUBLE_EQ(PlayerJson(p)["solve_rate"].get<double>(), 0.75);
}

}  // namespace
}  // namespace foundry::console
