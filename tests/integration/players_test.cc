// Players against a real coordinator over gRPC on 127.0.0.1 (issue 32,
// docs/players.md): plays judged by the family, idempotent play_ids, ratings
// on a player's first attempt only, GetPlayer's figures, NextPuzzle that
// never repeats and ends with RESOURCE_EXHAUSTED, and the bad-input rows,
// none of which records anything.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/family.h"
#include "puzzles/registry.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"
#include "tests/integration/players_fixture.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;
using C = grpc::StatusCode;

class PlayersTest : public PlayersFixture {
 protected:
  void Start(uint64_t count) {
    Fill("secret-number", count, 11);
    Serve();
    LoadIds(count);
  }
  // Another well-formed number of as many digits.
  static std::string WrongAnswer(std::string right) {
    right.back() = right.back() == '9' ? '1' : static_cast<char>(right.back() + 1);
    return right;
  }
  grpc::Status Play(const std::string& id, const std::string& player,
                    std::optional<std::string> answer, const std::string& play_id,
                    v1::RecordPlayResponse* out, bool claimed = false) {
    v1::RecordPlayRequest req;
    req.set_id(id);
    req.set_seconds(3);
    req.set_solved(claimed);
    req.set_player_id(player);
    if (answer) req.set_answer(*answer);
    req.set_play_id(play_id);
    return stub_->RecordPlay(Ctx().get(), req, out);
  }
  v1::Player Player(const std::string& player) {
    v1::GetPlayerRequest req;
    req.set_player_id(player);
    req.set_family("secret-number");
    v1::Player out;
    grpc::Status s = stub_->GetPlayer(Ctx().get(), req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
  uint64_t TotalPlays(const std::string& id) {
    const v1::Puzzle p = Get(id);
    return p.plays().solved() + p.plays().failed();
  }
  grpc::Status Next(const std::string& player, double offset, v1::Puzzle* out) {
    v1::NextPuzzleRequest req;
    req.set_player_id(player);
    req.set_family("secret-number");
    req.set_offset(offset);
    return stub_->NextPuzzle(Ctx().get(), req, out);
  }
};

TEST_F(PlayersTest, AnswersAreJudgedByTheFamily) {
  Start(5);
  // Served by NextPuzzle, so that the plays are rated (a puzzle opened by
  // id is not: players_plays_test.cc).
  v1::Puzzle served;
  ASSERT_TRUE(Next("alice", 0, &served).ok());
  const std::string id = served.id();
  do ASSERT_TRUE(Next("bob", 0, &served).ok());  // another puzzle than alice's
  while (served.id() == id);
  const std::string other = served.id();
  v1::RecordPlayResponse r;
  // The client claims "not solved", but the answer is right: judged solved.
  ASSERT_TRUE(Play(id, "alice", RightAnswer(id), "", &r, /*claimed=*/false).ok());
  EXPECT_TRUE(r.judged());
  EXPECT_TRUE(r.solved());
  EXPECT_TRUE(r.rated());
  EXPECT_GT(r.player().rating(), 1500);
  EXPECT_LT(r.puzzle_rating_change(), 0);
  EXPECT_EQ(r.judged_plays(), 1u);
  // A wrong answer claimed solved: judged not solved.
  ASSERT_TRUE(Play(other, "bob", WrongAnswer(RightAnswer(other)), "", &r, /*claimed=*/true).ok());
  EXPECT_TRUE(r.judged());
  EXPECT_FALSE(r.solved());
  EXPECT_LT(r.player().rating(), 1500);
  EXPECT_EQ(r.plays().failed(), 1u);
  // Without an answer: today's meaning, counted apart from judged plays.
  ASSERT_TRUE(Play(other, "", std::nullopt, "", &r, /*claimed=*/true).ok());
  EXPECT_FALSE(r.judged());
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.plays().solved() + r.plays().failed(), 2u);
  ASSERT_TRUE(Play(other, "", WrongAnswer(RightAnswer(other)), "", &r).ok());
  EXPECT_EQ(r.judged_plays(), 2u);  // 3 plays, 1 of them claimed
  EXPECT_EQ(r.plays().solved() + r.plays().failed(), 3u);
}

TEST_F(PlayersTest, PlayIdCountsOnceAndReturnsTheFirstResult) {
  Start(3);
  const std::string id = ids_[0];
  v1::RecordPlayResponse first, again;
  ASSERT_TRUE(Play(id, "carol", RightAnswer(id), "play-1", &first).ok());
  EXPECT_FALSE(first.replayed());
  ASSERT_TRUE(Play(id, "carol", RightAnswer(id), "play-1", &again).ok());
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.player().rating(), first.player().rating());
  EXPECT_EQ(again.plays().solved(), first.plays().solved());
  EXPECT_EQ(TotalPlays(id), 1u);
  EXPECT_EQ(Player("carol").plays(), 1u);
  // Claimed plays with a play_id are idempotent too.
  ASSERT_TRUE(Play(ids_[1], "", std::nullopt, "claim-1", &first, true).ok());
  ASSERT_TRUE(Play(ids_[1], "", std::nullopt, "claim-1", &again, true).ok());
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(TotalPlays(ids_[1]), 1u);
}

TEST_F(PlayersTest, OnlyTheFirstAttemptIsRated) {
  Start(3);
  v1::Puzzle served;  // a puzzle opened by id would not be rated at all
  ASSERT_TRUE(Next("dave", 0, &served).ok());
  const std::string id = served.id();
  v1::RecordPlayResponse r;
  ASSERT_TRUE(Play(id, "dave", WrongAnswer(RightAnswer(id)), "", &r).ok());
  EXPECT_TRUE(r.rated());
  const double rating = r.player().rating();
  const double puzzle_rating = r.puzzle_rating();
  ASSERT_TRUE(Play(id, "dave", RightAnswer(id), "", &r).ok());
  EXPECT_FALSE(r.rated());
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.player().rating(), rating);
  EXPECT_EQ(r.puzzle_rating(), puzzle_rating);
  const v1::Player p = Player("dave");
  EXPECT_EQ(p.plays(), 2u);
  EXPECT_EQ(p.solves(), 1u);
  EXPECT_EQ(p.rating(), rating);
  EXPECT_LT(p.deviation(), 500);
  EXPECT_GT(p.volatility(), 0);
}

TEST_F(PlayersTest, GetPlayerOfANewPlayerGivesTheDefaults) {
  Start(1);
  const v1::Player p = Player("nobody");
  EXPECT_EQ(p.player_id(), "nobody");
  EXPECT_EQ(p.family(), "secret-number");
  EXPECT_EQ(p.rating(), 1500);
  EXPECT_EQ(p.deviation(), 500);
  EXPECT_DOUBLE_EQ(p.volatility(), 0.09);
  EXPECT_EQ(p.plays(), 0u);
}

TEST_F(PlayersTest, NextPuzzleNeverRepeatsAndEndsExhausted) {
  Start(12);
  std::set<std::string> served;
  // A puzzle played without NextPuzzle is not served either.
  v1::RecordPlayResponse r;
  ASSERT_TRUE(Play(ids_[3], "erin", RightAnswer(ids_[3]), "", &r).ok());
  served.insert(ids_[3]);
  for (int i = 0; i < 11; ++i) {
    v1::Puzzle p;
    grpc::Status s = Next("erin", i % 2 == 0 ? 300 : -300, &p);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_TRUE(p.solution_json().empty());
    EXPECT_TRUE(served.insert(p.id()).second) << "repeated " << p.id();
    if (i % 3 == 0) {
      ASSERT_TRUE(Play(p.id(), "erin", RightAnswer(p.id()), "", &r).ok());
    }
  }
  EXPECT_EQ(served.size(), 12u);
  v1::Puzzle p;
  grpc::Status s = Next("erin", 0, &p);
  EXPECT_EQ(s.error_code(), C::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("secret-number"), std::string::npos) << s.error_message();
  // Another player still has every puzzle; a restart forgets nothing.
  ASSERT_TRUE(cluster_->CrashAndRestartCoordinator());
  stub_ = v1::PuzzleStore::NewStub(
      grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials()));
  EXPECT_EQ(Next("erin", 0, &p).error_code(), C::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(Next("frank", 0, &p).ok());
}

TEST_F(PlayersTest, NextPuzzleAimsAtTheRatingPlusOffset) {
  Start(40);
  // A new player (1500): +1000 aims at the hardest puzzles, -1000 at the
  // easiest (initial ratings follow the generator's score).
  v1::Puzzle hard, easy;
  ASSERT_TRUE(Next("gina", 1000, &hard).ok());
  ASSERT_TRUE(Next("gina", -1000, &easy).ok());
  EXPECT_GE(hard.difficulty().score(), easy.difficulty().score());
}

TEST_F(PlayersTest, BadInputRecordsNothing) {
  Start(2);
  const std::string id = ids_[0];
  const std::string right = RightAnswer(id);
  v1::RecordPlayResponse r;
  ASSERT_TRUE(Play(id, "hank", right, "dup", &r).ok());
  struct Row {
    const char* name;
    std::function<grpc::Status()> call;
    C code;
    const char* message;
  };
  const std::string long_id(129, 'x');
  v1::Puzzle out;
  v1::Player player_out;
  const std::vector<Row> rows = {
      {"unreadable answer", [&] { return Play(id, "hank", std::string("abc"), "", &r); },
       C::INVALID_ARGUMENT, "answer:"},
      {"empty answer", [&] { return Play(id, "hank", std::string(""), "", &r); },
       C::INVALID_ARGUMENT, "answer:"},
      {"over-long player id", [&] { return Play(id, long_id, right, "", &r); }, C::INVALID_ARGUMENT,
       "at most 128 bytes"},
      {"over-long play id", [&] { return Play(id, "hank", right, long_id, &r); },
       C::INVALID_ARGUMENT, "play_id must be at most 128"},
      {"unknown puzzle",
       [&] { return Play("sn-0123456789abcdef0123456789abcdef", "hank", right, "", &r); },
       C::NOT_FOUND, "no puzzle with id"},
      {"play_id with another answer",
       [&] { return Play(id, "hank", WrongAnswer(right), "dup", &r); }, C::ALREADY_EXISTS,
       "play_id 'dup'"},
      {"play_id with another player", [&] { return Play(id, "ivy", right, "dup", &r); },
       C::ALREADY_EXISTS, "play_id 'dup'"},
      {"next: empty player id", [&] { return Next("", 0, &out); }, C::INVALID_ARGUMENT,
       "player_id must not be empty"},
      {"next: over-long player id", [&] { return Next(long_id, 0, &out); }, C::INVALID_ARGUMENT,
       "at most 128 bytes"},
      {"next: offset out of range", [&] { return Next("hank", 1001, &out); }, C::INVALID_ARGUMENT,
       "offset must be -1000..1000"},
      {"next: offset NaN", [&] { return Next("hank", std::nan(""), &out); }, C::INVALID_ARGUMENT,
       "offset must be"},
      {"next: unknown family",
       [&] {
         v1::NextPuzzleRequest q;
         q.set_player_id("hank");
         q.set_family("chess");
         return stub_->NextPuzzle(Ctx().get(), q, &out);
       },
       C::INVALID_ARGUMENT, "chess"},
      {"player: empty id",
       [&] {
         v1::GetPlayerRequest q;
         q.set_family("secret-number");
         return stub_->GetPlayer(Ctx().get(), q, &player_out);
       },
       C::INVALID_ARGUMENT, "player_id must not be empty"},
  };
  for (const Row& row : rows) {
    grpc::Status s = row.call();
    EXPECT_EQ(s.error_code(), row.code) << row.name << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(row.message), std::string::npos)
        << row.name << ": " << s.error_message();
  }
  // Nothing recorded: one play in all, hank's figures unchanged, and hank
  // was served nothing (both puzzles are still to come).
  EXPECT_EQ(TotalPlays(id), 1u);
  EXPECT_EQ(TotalPlays(ids_[1]), 0u);
  EXPECT_EQ(Player("hank").plays(), 1u);
  EXPECT_EQ(Player("ivy").plays(), 0u);
  EXPECT_TRUE(Next("hank", 0, &out).ok());  // ids_[1]; ids_[0] was played
  EXPECT_EQ(out.id(), ids_[1]);
  EXPECT_EQ(Next("hank", 0, &out).error_code(), C::RESOURCE_EXHAUSTED);
}

// `foundry play --player --family`: the store picks the puzzle, a typo is
// refused and retyped, the answer is judged and the rating change shown.
TEST_F(PlayersTest, CommandLinePlaysTheNextPuzzleAndShowsTheRatingChange) {
  Start(3);
  auto round = RunCommand({"/bin/sh", "-c",
                           "printf 'abc\\n100\\n' | " + Bin("foundry") +
                               " play --player kim --family secret-number --coordinator " +
                               cluster_->address()});
  EXPECT_TRUE(round.exit_code == 0 || round.exit_code == 2) << round.out << round.err;
  EXPECT_NE(round.out.find("kim: rating 1500"), std::string::npos) << round.out;
  EXPECT_NE(round.out.find("not a digit"), std::string::npos) << round.out;
  EXPECT_NE(round.out.find("Rating 1500 → "), std::string::npos) << round.out;
  const v1::Player kim = Player("kim");
  EXPECT_EQ(kim.plays(), 1u);
  EXPECT_NE(kim.rating(), 1500);
  auto bad =
      RunCommand({Bin("foundry"), "play", "--player", "kim", "--coordinator", cluster_->address()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--player and --family go together"), std::string::npos) << bad.err;
  // An empty name is refused as such, not read as a flag not given.
  const auto play = [&](const std::string& player, const std::string& family) {
    return RunCommand({Bin("foundry"), "play", "--player", player, "--family", family,
                       "--coordinator", cluster_->address()});
  };
  for (const auto& [empty, flag] :
       {std::pair{play("", "sudoku"), "--player"}, std::pair{play("kim", ""), "--family"}}) {
    EXPECT_NE(empty.exit_code, 0) << flag;
    EXPECT_NE(empty.err.find(std::string(flag) + ": must not be empty"), std::string::npos)
        << empty.err;
  }
}

using PlayersRolesTest = PlayersFixture;

// The reader token (a game server's) may play, rate, draw and ask for the
// puzzle of the day; a worker token may not; only admin may refit.
TEST_F(PlayersRolesTest, ReaderMayServePlayersWorkerMayNot) {
  std::map<std::string, std::string> tokens = ServeWithRoleTokens();
  ASSERT_FALSE(HasFatalFailure());
  const auto ctx = [](const std::string& token) {
    auto c = Ctx();
    c->AddMetadata("authorization", "Bearer " + token);
    return c;
  };
  {
    v1::RefitRatingsResponse refit;
    EXPECT_TRUE(
        stub_->RefitRatings(ctx(tokens["admin"]).get(), v1::RefitRatingsRequest(), &refit).ok());
    EXPECT_EQ(refit.families_size(), 1);
  }
  for (const char* role : {"reader", "worker"}) {
    const C want = std::string(role) == "reader" ? C::OK : C::PERMISSION_DENIED;
    v1::NextPuzzleRequest next;
    next.set_player_id("p");
    next.set_family("secret-number");
    v1::Puzzle puzzle;
    EXPECT_EQ(stub_->NextPuzzle(ctx(tokens[role]).get(), next, &puzzle).error_code(), want) << role;
    v1::GetPlayerRequest get;
    get.set_player_id("p");
    get.set_family("secret-number");
    v1::Player player;
    EXPECT_EQ(stub_->GetPlayer(ctx(tokens[role]).get(), get, &player).error_code(), want) << role;
    v1::PuzzleOfTheDayRequest daily;
    daily.set_family("secret-number");
    v1::Puzzle of_the_day;
    EXPECT_EQ(stub_->PuzzleOfTheDay(ctx(tokens[role]).get(), daily, &of_the_day).error_code(), want)
        << role;
    // A refit rewrites how every new puzzle starts: admin only.
    v1::RefitRatingsResponse refit;
    EXPECT_EQ(stub_->RefitRatings(ctx(tokens[role]).get(), v1::RefitRatingsRequest(), &refit)
                  .error_code(),
              C::PERMISSION_DENIED)
        << role;
    if (want == C::OK) {
      v1::RecordPlayRequest play;
      play.set_id(puzzle.id());
      play.set_player_id("p");
      play.set_answer("1000");
      v1::RecordPlayResponse r;
      grpc::Status s = stub_->RecordPlay(ctx(tokens[role]).get(), play, &r);
      EXPECT_TRUE(s.ok() || s.error_code() == C::INVALID_ARGUMENT) << s.error_message();
    }
  }
}

}  // namespace
}  // namespace foundry::testing
