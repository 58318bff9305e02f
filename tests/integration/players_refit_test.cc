// Players beyond a single play, against a real coordinator over gRPC on
// 127.0.0.1 (docs/players.md): the rating flags, the refit of each family's
// grade -> rating mapping (foundry players refit, through the coordinator
// and on a stopped store), the puzzle of the day, and the players' metrics.
#include <chrono>

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
constexpr char kSn[] = "secret-number";

class PlayersRefitTest : public PlayersFixture {
 protected:
  void Generate(uint64_t count, uint64_t seed) { Fill(kSn, count, seed); }
  // A well-formed answer that is wrong (the right one with its last digit changed).
  std::string WrongAnswer(const std::string& id) {
    std::string right = RightAnswer(id);
    right.back() = right.back() == '9' ? '1' : static_cast<char>(right.back() + 1);
    return right;
  }
  grpc::Status Daily(const std::string& date, v1::Puzzle* out,
                     v1::PuzzleStore::Stub* stub = nullptr) {
    v1::PuzzleOfTheDayRequest req;
    req.set_family(kSn);
    req.set_date(date);
    return (stub ? stub : stub_.get())->PuzzleOfTheDay(Ctx().get(), req, out);
  }
  v1::RefitRatingsResponse Refit(uint64_t min_judged, uint64_t min_puzzles) {
    v1::RefitRatingsRequest req;
    req.set_min_judged_plays(min_judged);
    req.set_min_puzzles(min_puzzles);
    v1::RefitRatingsResponse out;
    grpc::Status s = stub_->RefitRatings(Ctx().get(), req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
};

// Every player fails ten puzzles: their ratings climb well above where the
// default mapping started them. The refit moves the family's mapping up,
// new puzzles start from it, and it outlives a restart; families without
// enough data keep theirs.
TEST_F(PlayersRefitTest, RefitFitsTheFamilyFromPlaysAndNewPuzzlesStartThere) {
  Generate(30, 11);
  // The players play puzzles chosen by id, as a game server that picks its
  // players' puzzles itself: rated only with --rate-unserved-plays.
  Serve({"--rate-unserved-plays"});
  const std::vector<std::string> ids = ExportedIds(cluster_->address());
  ASSERT_EQ(ids.size(), 30u);
  for (int i = 0; i < 10; ++i) {
    const std::string wrong = WrongAnswer(ids[i]);
    for (int p = 0; p < 4; ++p) Play(ids[i], "p" + std::to_string(p), wrong);
  }
  auto cli = RunCommand({Bin("foundry"), "players", "refit", "--coordinator", cluster_->address(),
                         "--min-judged-plays", "4", "--min-puzzles", "5"});
  ASSERT_EQ(cli.exit_code, 0) << cli.out << cli.err;
  EXPECT_NE(cli.out.find("secret-number: 10 puzzles; 1500 + 1000·(score − 0.5) (default) → "),
            std::string::npos)
      << cli.out;
  // Asked again with a bar nobody reaches: the fit is kept, and reported.
  v1::RefitRatingsResponse kept = Refit(4, 1000);
  ASSERT_EQ(kept.families_size(), 1);
  const v1::FamilyRefit& r = kept.families(0);
  EXPECT_EQ(r.family(), kSn);
  EXPECT_FALSE(r.refitted());
  EXPECT_EQ(r.puzzles(), 10u);
  ASSERT_TRUE(r.before().fitted());
  EXPECT_EQ(r.before().puzzles(), 10u);
  EXPECT_GT(r.before().center(), 1500) << "failed puzzles are harder than their grade said";
  EXPECT_GE(r.before().per_score(), 0);
  // A refit again over the same data: the same line, and its error is the
  // least the data allow (below the default's).
  v1::RefitRatingsResponse again = Refit(4, 5);
  ASSERT_TRUE(again.families(0).refitted());
  EXPECT_NEAR(again.families(0).after().center(), r.before().center(), 1e-6);
  EXPECT_NEAR(again.families(0).mean_abs_error_after(), again.families(0).mean_abs_error_before(),
              1e-6);
  // A never-judged puzzle's first judged play starts from the fitted line.
  const v1::Puzzle fresh = Get(ids[20]);
  const v1::RecordPlayResponse first = Play(ids[20], "newcomer", WrongAnswer(ids[20]));
  EXPECT_NEAR(first.puzzle_rating() - first.puzzle_rating_change(),
              r.before().center() + r.before().per_score() * (fresh.difficulty().score() - 0.5),
              1e-6);
  // A restart forgets nothing.
  ASSERT_TRUE(cluster_->CrashAndRestartCoordinator());
  Connect();
  EXPECT_NEAR(Refit(4, 1000).families(0).before().center(), r.before().center(), 1e-6);
  // On a stopped store, the same command with --db.
  ASSERT_TRUE(cluster_->StopAll());
  auto offline = RunCommand({Bin("foundry"), "players", "refit", "--db", db(), "--min-judged-plays",
                             "4", "--min-puzzles", "5"});
  ASSERT_EQ(offline.exit_code, 0) << offline.out << offline.err;
  EXPECT_NE(offline.out.find("secret-number: 10 puzzles; "), std::string::npos) << offline.out;
  EXPECT_NE(offline.out.find("mean |initial − rating|"), std::string::npos) << offline.out;
  auto too_few = RunCommand({Bin("foundry"), "players", "refit", "--db", db()});
  ASSERT_EQ(too_few.exit_code, 0) << too_few.err;
  EXPECT_NE(too_few.out.find("0 puzzles with ≥ 20 judged plays, fewer than 10: kept"),
            std::string::npos)
      << too_few.out;
}

// The constants come from the coordinator's flags.
TEST_F(PlayersRefitTest, RatingFlagsSetTheConstants) {
  Generate(5, 3);
  Serve({"--new-rating", "1200", "--new-rating-deviation", "300", "--puzzle-rating-center", "900",
         "--puzzle-rating-per-score", "0", "--rating-max-change", "10", "--rate-unserved-plays"});
  v1::GetPlayerRequest who;
  who.set_player_id("ann");
  who.set_family(kSn);
  v1::Player ann;
  ASSERT_TRUE(stub_->GetPlayer(Ctx().get(), who, &ann).ok());
  EXPECT_EQ(ann.rating(), 1200);
  EXPECT_EQ(ann.deviation(), 300);
  const std::vector<std::string> ids = ExportedIds(cluster_->address());
  const v1::RecordPlayResponse r = Play(ids[0], "ann", WrongAnswer(ids[0]));
  EXPECT_TRUE(r.opened_by_id());
  EXPECT_TRUE(r.rated()) << "--rate-unserved-plays";
  EXPECT_NEAR(r.puzzle_rating() - r.puzzle_rating_change(), 900, 1e-9) << "a flat mapping";
  EXPECT_NEAR(r.player_rating_change(), -10, 1e-9) << "clamped by --rating-max-change";
}

// The same puzzle for every caller of a (family, date), across restarts and
// while the family grows; its solution is not sent.
TEST_F(PlayersRefitTest, ThePuzzleOfTheDayIsTheSameForEveryone) {
  Generate(30, 5);
  Serve();
  v1::Puzzle first, second, today, explicit_today;
  ASSERT_TRUE(Daily("2026-06-01", &first).ok());
  EXPECT_EQ(first.family(), kSn);
  EXPECT_TRUE(first.solution_json().empty());
  auto other = v1::PuzzleStore::NewStub(
      grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials()));
  ASSERT_TRUE(Daily("2026-06-01", &second, other.get()).ok());
  EXPECT_EQ(second.id(), first.id());
  // An empty date is today in UTC.
  ASSERT_TRUE(Daily("", &today).ok());
  const std::chrono::year_month_day ymd{
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  char date[16];
  std::snprintf(date, sizeof date, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  ASSERT_TRUE(Daily(date, &explicit_today).ok());
  EXPECT_EQ(today.id(), explicit_today.id());
  // More puzzles of the family, a new coordinator: the same puzzle.
  ASSERT_TRUE(cluster_->StopAll());
  cluster_.reset();
  Generate(60, 6);
  Serve();
  ASSERT_TRUE(Daily("2026-06-01", &second).ok());
  EXPECT_EQ(second.id(), first.id());
  auto cli = RunCommand({Bin("foundry"), "daily", "--family", kSn, "--date", "2026-06-01",
                         "--coordinator", cluster_->address()});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_NE(cli.out.find("Puzzle of the day of 2026-06-01: " + first.id()), std::string::npos)
      << cli.out;
}

// Plays by kind, rating updates, NextPuzzle calls and exhausted answers.
TEST_F(PlayersRefitTest, MetricsCountPlaysRatingsAndNextPuzzle) {
  Generate(2, 7);
  Serve({"--rate-unserved-plays"});  // ann's first play, of a puzzle opened by id, is rated
  const int port = cluster_->metrics_port();
  const std::vector<std::string> ids = ExportedIds(cluster_->address());
  Play(ids[0], "ann", WrongAnswer(ids[0]), "play-1");
  Play(ids[0], "ann", WrongAnswer(ids[0]), "play-1");  // replayed
  Play(ids[0], "ann", WrongAnswer(ids[0]));            // judged, not rated (second attempt)
  v1::RecordPlayRequest claim;
  claim.set_id(ids[1]);
  claim.set_solved(true);
  v1::RecordPlayResponse out;
  ASSERT_TRUE(stub_->RecordPlay(Ctx().get(), claim, &out).ok());
  v1::NextPuzzleRequest next;
  next.set_player_id("ann");
  next.set_family(kSn);
  v1::Puzzle p;
  ASSERT_TRUE(stub_->NextPuzzle(Ctx().get(), next, &p).ok());  // ids[1]
  EXPECT_EQ(stub_->NextPuzzle(Ctx().get(), next, &p).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ScrapeMetric(port, "foundry_plays_total{kind=\"judged\"}"), 2);
  EXPECT_EQ(ScrapeMetric(port, "foundry_plays_total{kind=\"replayed\"}"), 1);
  EXPECT_EQ(ScrapeMetric(port, "foundry_plays_total{kind=\"claimed\"}"), 1);
  EXPECT_EQ(ScrapeMetric(port, "foundry_rating_updates_total"), 1);
  EXPECT_EQ(ScrapeMetric(port, "foundry_next_puzzle_calls_total"), 2);
  EXPECT_EQ(ScrapeMetric(port, "foundry_next_puzzle_exhausted_total"), 1);
}

}  // namespace
}  // namespace foundry::testing
