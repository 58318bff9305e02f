// What players leave behind, against a real coordinator over gRPC on
// 127.0.0.1 (docs/players.md): a puzzle opened by id is played unrated
// while one NextPuzzle or the puzzle of the day served is rated; each
// alignment puzzle keeps its best scored answer; `foundry export --plays`
// and ExportPlays (admin only) write every play with a player, through the
// coordinator and from a stopped store alike.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

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

// The JSON objects of a JSON Lines text.
std::vector<nlohmann::json> Lines(const std::string& jsonl) {
  std::vector<nlohmann::json> out;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

class PlayersPlaysTest : public PlayersFixture {
 protected:
  PlayersPlaysTest() { play_seconds_ = 30; }
  void Start(const std::string& family, uint64_t count, std::vector<std::string> args = {}) {
    Fill(family, count, 5);
    Serve(std::move(args));
    LoadIds(count);
  }
};

// lichess's rule: a puzzle opened by id cannot be picked to rate a player
// up. It counts in the player's plays, moves no rating, and says so.
TEST_F(PlayersPlaysTest, APuzzleOpenedByIdIsUnratedServedOnesAreRated) {
  Start("secret-number", 6);
  v1::RecordPlayResponse r = Play(ids_[0], "ann", RightAnswer(ids_[0]));
  EXPECT_TRUE(r.judged());
  EXPECT_TRUE(r.solved());
  EXPECT_FALSE(r.rated());
  EXPECT_TRUE(r.opened_by_id());
  EXPECT_EQ(r.player().plays(), 1u);
  EXPECT_EQ(r.player().solves(), 1u);
  EXPECT_EQ(r.player().rating(), 1500);
  EXPECT_EQ(r.puzzle_rating_change(), 0);
  EXPECT_FALSE(r.has_answer_score()) << "secret-number answers are right or wrong";
  // Served by NextPuzzle: rated.
  v1::NextPuzzleRequest next;
  next.set_player_id("ann");
  next.set_family("secret-number");
  v1::Puzzle served;
  ASSERT_TRUE(stub_->NextPuzzle(Ctx().get(), next, &served).ok());
  r = Play(served.id(), "ann", RightAnswer(served.id()));
  EXPECT_TRUE(r.rated());
  EXPECT_FALSE(r.opened_by_id());
  EXPECT_GT(r.player().rating(), 1500);
  // Today's puzzle of the day is served to everyone.
  v1::PuzzleOfTheDayRequest daily;
  daily.set_family("secret-number");
  v1::Puzzle of_the_day;
  ASSERT_TRUE(stub_->PuzzleOfTheDay(Ctx().get(), daily, &of_the_day).ok());
  r = Play(of_the_day.id(), "bob", RightAnswer(of_the_day.id()));
  EXPECT_TRUE(r.rated());
  EXPECT_FALSE(r.opened_by_id());
  // An older day's puzzle is opened by id (unless it is also today's).
  daily.set_date("2026-01-01");
  v1::Puzzle old_day;
  ASSERT_TRUE(stub_->PuzzleOfTheDay(Ctx().get(), daily, &old_day).ok());
  if (old_day.id() != of_the_day.id()) {
    r = Play(old_day.id(), "cid", RightAnswer(old_day.id()));
    EXPECT_FALSE(r.rated());
    EXPECT_TRUE(r.opened_by_id());
  }
}

// Borderlands Science: each alignment puzzle keeps its best player
// solution beside the generator's figures; export --plays writes every
// play with a player, with the score, from the coordinator or the store.
TEST_F(PlayersPlaysTest, AlignmentKeepsTheBestSolutionAndExportWritesThePlays) {
  Start("alignment", 2);
  const std::string id = ids_[0];
  const nlohmann::json puzzle = nlohmann::json::parse(Get(id).puzzle_json());
  const int base = puzzle["base_score"], target = puzzle["target_score"],
            greedy = puzzle["greedy_score"], best = puzzle["best_score"];
  v1::RecordPlayResponse r = Play(id, "ann", "none", "ann-1");
  EXPECT_FALSE(r.solved()) << "the base is below the target";
  ASSERT_TRUE(r.has_answer_score());
  EXPECT_EQ(r.answer_score().score(), base);
  EXPECT_EQ(r.answer_score().target_score(), target);
  EXPECT_EQ(r.answer_score().greedy_score(), greedy);
  EXPECT_EQ(r.answer_score().best_score(), best);
  EXPECT_TRUE(r.new_best());
  EXPECT_EQ(r.best_solution().player_id(), "ann");
  const std::string right = RightAnswer(id);  // the generator's best layout
  r = Play(id, "bob", right);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.answer_score().score(), best);
  EXPECT_TRUE(r.new_best());
  r = Play(id, "cid", right);  // as good, later: bob keeps it
  EXPECT_FALSE(r.new_best());
  EXPECT_EQ(r.best_solution().player_id(), "bob");
  EXPECT_EQ(r.best_solution().answer(), right);
  EXPECT_EQ(r.best_solution().score().score(), best);
  // An answer whose gaps do not fit: wrong, and no score.
  r = Play(ids_[1], "ann", "c0r" + std::to_string(puzzle["height"].get<int>() - 1));
  EXPECT_FALSE(r.solved());
  EXPECT_FALSE(r.has_answer_score());
  EXPECT_FALSE(r.has_best_solution());
  // A replay returns the first response, best solution included.
  r = Play(id, "ann", "none", "ann-1");
  EXPECT_TRUE(r.replayed());
  EXPECT_EQ(r.best_solution().player_id(), "ann");

  auto exported =
      RunCommand({Bin("foundry"), "export", "--plays", "--coordinator", cluster_->address()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto lines = Lines(exported.out);
  ASSERT_EQ(lines.size(), 4u) << exported.out;
  std::map<std::string, int> best_now;
  for (const auto& j : lines) {
    EXPECT_EQ(j["family"], "alignment");
    EXPECT_TRUE(j["judged"].get<bool>());
    EXPECT_EQ(j["seconds"], 30);
    EXPECT_TRUE(j.contains("answer"));
    EXPECT_FALSE(j["rated"].get<bool>()) << "opened by id";
    EXPECT_TRUE(j["opened_by_id"].get<bool>());
    if (j["id"] == id) {
      EXPECT_EQ(j["score"]["target"], target);
      EXPECT_EQ(j["score"]["greedy"], greedy);
      if (j["best_now"].get<bool>()) best_now[j["player_id"]]++;
    } else {
      EXPECT_FALSE(j.contains("score"));
    }
  }
  EXPECT_EQ(best_now, (std::map<std::string, int>{{"bob", 1}}));
  EXPECT_EQ(lines[0]["player_id"], "ann");
  EXPECT_EQ(lines[0]["play_id"], "ann-1");
  EXPECT_EQ(lines[0]["score"]["score"], base);
  EXPECT_TRUE(lines[0]["new_best"].get<bool>());
  // One player's; a limit through the RPC.
  auto bob = RunCommand({Bin("foundry"), "export", "--plays", "--player", "bob", "--coordinator",
                         cluster_->address()});
  ASSERT_EQ(bob.exit_code, 0) << bob.err;
  ASSERT_EQ(Lines(bob.out).size(), 1u);
  EXPECT_EQ(Lines(bob.out)[0]["answer"], right);
  v1::ExportPlaysRequest req;
  req.set_limit(2);
  auto ctx = Ctx();
  auto reader = stub_->ExportPlays(ctx.get(), req);
  v1::PlayRecord record;
  int n = 0;
  while (reader->Read(&record)) ++n;
  ASSERT_TRUE(reader->Finish().ok());
  EXPECT_EQ(n, 2);
  // The flags of puzzle exports do not apply to plays.
  auto wrong = RunCommand({Bin("foundry"), "export", "--plays", "--level", "hard", "--coordinator",
                           cluster_->address()});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_NE(wrong.err.find("--plays takes --family, --player and --limit only"), std::string::npos)
      << wrong.err;
  // A stopped store gives the same lines.
  ASSERT_TRUE(cluster_->StopAll());
  auto offline = RunCommand({Bin("foundry"), "export", "--plays", "--db", db()});
  ASSERT_EQ(offline.exit_code, 0) << offline.err;
  EXPECT_EQ(offline.out, exported.out);
  auto other_family =
      RunCommand({Bin("foundry"), "export", "--plays", "--family", "sudoku", "--db", db()});
  ASSERT_EQ(other_family.exit_code, 0) << other_family.err;
  EXPECT_EQ(other_family.out, "");
}

// Plays name players and what they typed: ExportPlays is admin's alone.
// The ids NextPuzzle serves `player` at offset 0, `calls` times.
std::vector<std::string> Served(v1::PuzzleStore::Stub& stub, const std::string& player, int calls) {
  std::vector<std::string> ids;
  for (int i = 0; i < calls; ++i) {
    v1::NextPuzzleRequest req;
    req.set_player_id(player);
    req.set_family("secret-number");
    v1::Puzzle p;
    grpc::Status s = stub.NextPuzzle(Ctx().get(), req, &p);
    EXPECT_TRUE(s.ok()) << s.error_message();
    ids.push_back(p.id());
  }
  return ids;
}

// By default NextPuzzle draws among the 8 nearest unplayed puzzles: two
// new players (one rating) part ways, each never repeats, and the family
// still ends exhausted, naming it.
TEST_F(PlayersPlaysTest, NextPuzzleSpreadsPlayersOfOneRatingOverTheNearest) {
  Start("secret-number", 30);
  const std::vector<std::string> a = Served(*stub_, "pat", 30);
  const std::vector<std::string> b = Served(*stub_, "quinn", 10);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), 30u);
  EXPECT_EQ(std::set<std::string>(b.begin(), b.end()).size(), 10u);
  // 10 draws among 8 the same for both: odds far below 1 in a million.
  EXPECT_NE(std::vector<std::string>(a.begin(), a.begin() + 10), b);
  v1::NextPuzzleRequest req;
  req.set_player_id("pat");
  req.set_family("secret-number");
  v1::Puzzle p;
  grpc::Status s = stub_->NextPuzzle(Ctx().get(), req, &p);
  EXPECT_EQ(s.error_code(), C::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("secret-number"), std::string::npos) << s.error_message();
}

// --next-puzzle-nearest 1 always serves the nearest: two new players walk
// the same puzzles. A never-judged puzzle starts at
// --new-puzzle-rating-deviation, so its first play moves it less than the
// new player's (deviation 500).
TEST_F(PlayersPlaysTest, NearestOneServesInStepAndPuzzlesStartAtTheirOwnDeviation) {
  Start("secret-number", 12,
        {"--next-puzzle-nearest", "1", "--new-puzzle-rating-deviation", "100"});
  const std::vector<std::string> a = Served(*stub_, "ray", 6);
  EXPECT_EQ(a, Served(*stub_, "sam", 6));
  v1::RecordPlayResponse r = Play(a[0], "ray", RightAnswer(a[0]));
  ASSERT_TRUE(r.rated());
  EXPECT_LT(std::abs(r.puzzle_rating_change()), std::abs(r.player_rating_change()) / 4)
      << r.puzzle_rating_change() << " " << r.player_rating_change();
}

using PlayersPlaysRolesTest = PlayersFixture;

TEST_F(PlayersPlaysRolesTest, OnlyAdminMayExportPlays) {
  std::map<std::string, std::string> tokens = ServeWithRoleTokens();
  ASSERT_FALSE(HasFatalFailure());
  for (const auto& [role, token] : tokens) {
    auto ctx = Ctx();
    ctx->AddMetadata("authorization", "Bearer " + token);
    auto reader = stub_->ExportPlays(ctx.get(), v1::ExportPlaysRequest());
    v1::PlayRecord r;
    while (reader->Read(&r)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), role == "admin" ? C::OK : C::PERMISSION_DENIED)
        << role;
  }
  auto cli = RunCommand({"/bin/sh", "-c",
                         "FOUNDRY_TOKEN_FILE=" + dir_.path() + "/reader.token " + Bin("foundry") +
                             " export --plays --coordinator " + cluster_->address()});
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_NE(cli.err.find("export plays"), std::string::npos) << cli.err;
}

}  // namespace
}  // namespace foundry::testing
