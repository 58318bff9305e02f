// End to end: real coordinator and workers on loopback, driven by the real
// foundry command.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

class CampaignTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

TEST_F(CampaignTest, TwentyThousandPuzzlesThroughTwoWorkersExportAndVerify) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), /*workers=*/2, /*threads=*/1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();

  auto submit =
      RunCommand({Bin("foundry"), "campaign", "submit", "--coordinator", cluster.address(),
                  "--family", "secret-number", "--count", "20000", "--seed", "7", "--watch"});
  ASSERT_EQ(submit.exit_code, 0) << submit.out << submit.err << cluster.CoordinatorLog();
  EXPECT_NE(submit.out.find("done"), std::string::npos) << submit.out;
  EXPECT_NE(submit.out.find("stored 20,000"), std::string::npos) << submit.out;
  EXPECT_NE(submit.out.find("What is my number?"), std::string::npos) << "example puzzle missing";

  // The rate is the campaign's own: stored over created..finished from its
  // timestamps, the same in the watch's summary and in a later status (not
  // the watcher's clock, which includes its polling; not 0 afterwards).
  const std::regex summary_re(
      R"(campaign (c-[0-9a-f]+) done: .* rate ([0-9]+) puzzles/s \(([0-9.]+) s\))");
  std::smatch watched;
  ASSERT_TRUE(std::regex_search(submit.out, watched, summary_re)) << submit.out;
  const std::string id = watched[1];
  auto status =
      RunCommand({Bin("foundry"), "campaign", "status", "--coordinator", cluster.address(), id});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  std::smatch later;
  ASSERT_TRUE(std::regex_search(status.out, later, summary_re)) << status.out;
  EXPECT_EQ(later[2], watched[2]) << "watch and status disagree on the rate";
  auto json = RunCommand(
      {Bin("foundry"), "campaign", "status", "--json", "--coordinator", cluster.address(), id});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto c = nlohmann::json::parse(json.out);
  const double seconds = static_cast<double>(std::stoll(c["finishedUnixMs"].get<std::string>()) -
                                             std::stoll(c["createdUnixMs"].get<std::string>())) /
                         1000.0;
  ASSERT_GT(seconds, 0) << json.out;
  EXPECT_NEAR(std::stod(later[3]), seconds, 0.051) << status.out;
  EXPECT_NEAR(std::stod(later[2]), 20000 / seconds, 1.0) << status.out;

  auto exported = RunCommand({Bin("foundry"), "export", "--coordinator", cluster.address()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto ids = IdsOf(exported.out);
  EXPECT_EQ(ids.size(), 20000u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size()) << "duplicate ids";

  const std::string file = dir_.path() + "/export.jsonl";
  std::ofstream(file) << exported.out;
  auto verified = RunCommand({Bin("foundry"), "verify", file});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("20,000 ok, 0 failed"), std::string::npos) << verified.out;

  // The metrics every dashboard needs are served.
  auto metrics =
      RunCommand({"/usr/bin/curl", "-sf",
                  "http://127.0.0.1:" + std::to_string(cluster.metrics_port()) + "/metrics"});
  ASSERT_EQ(metrics.exit_code, 0) << metrics.err;
  for (const char* name : {"foundry_stored_total", "foundry_duplicates_total",
                           "foundry_jobs_in_flight", "foundry_workers"}) {
    EXPECT_NE(metrics.out.find(name), std::string::npos) << name;
  }
  EXPECT_NE(metrics.out.find("foundry_stored_total{family=\"secret-number\"} 20000"),
            std::string::npos);

  EXPECT_TRUE(cluster.StopAll()) << "a process did not exit cleanly";
  // After the coordinator is gone, the store itself re-verifies.
  auto db_verified = RunCommand({Bin("foundry"), "verify", "--db", dir_.path() + "/db"});
  EXPECT_EQ(db_verified.exit_code, 0) << db_verified.out << db_verified.err;
}

TEST_F(CampaignTest, SameSeedGivesSameIdsEmbeddedAndDistributed) {
  const std::vector<std::string> gen = {"--family", "secret-number", "--count", "3000", "--seed",
                                        "11",       "--set",         "digits=4"};
  // Embedded, one thread, a job size of its own choosing.
  const auto a = EmbeddedIds(dir_.path() + "/embedded", gen);

  // Distributed: two workers with two threads each and tiny jobs.
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 2, 2);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  std::vector<std::string> submit = {Bin("foundry"),    "campaign",   "submit", "--coordinator",
                                     cluster.address(), "--job-size", "37",     "--watch"};
  submit.insert(submit.end(), gen.begin(), gen.end());
  auto distributed = RunCommand(submit);
  ASSERT_EQ(distributed.exit_code, 0) << distributed.out << distributed.err;
  const auto b = ExportedIds(cluster.address());

  ASSERT_EQ(a.size(), 3000u);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()), std::set<std::string>(b.begin(), b.end()));
}

TEST_F(CampaignTest, ConcurrentCampaignsOfSeveralFamiliesWithPrioritiesAndACancel) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 2, 1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  const std::string a =
      SubmitCampaign(cluster.address(), {"--family", "secret-number", "--count", "3000"});
  const std::string b = SubmitCampaign(
      cluster.address(), {"--family", "bulls-cows", "--count", "400", "--priority", "3"});
  const std::string c =
      SubmitCampaign(cluster.address(), {"--family", "zebra", "--count", "1000000"});
  ASSERT_TRUE(WaitUntilStored(cluster.address(), c, 20));
  auto cancel =
      RunCommand({Bin("foundry"), "campaign", "cancel", "--coordinator", cluster.address(), c});
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;
  EXPECT_EQ(WatchCampaign(cluster.address(), a).exit_code, 0);
  EXPECT_EQ(WatchCampaign(cluster.address(), b).exit_code, 0);

  const CampaignView cancelled = CampaignStatus(cluster.address(), c);
  EXPECT_EQ(cancelled.state, "CAMPAIGN_STATE_CANCELLED");
  auto partial =
      RunCommand({Bin("foundry"), "export", "--coordinator", cluster.address(), "--campaign", c});
  EXPECT_EQ(IdsOf(partial.out).size(), cancelled.stored)
      << "a cancelled campaign keeps what it stored";
  EXPECT_GE(cancelled.stored, 20u);
  for (const auto& [id, n] : {std::pair{a, 3000u}, std::pair{b, 400u}}) {
    auto out = RunCommand(
        {Bin("foundry"), "export", "--coordinator", cluster.address(), "--campaign", id});
    EXPECT_EQ(IdsOf(out.out).size(), n) << id;
  }
  EXPECT_TRUE(cluster.StopAll());
  auto verified = RunCommand({Bin("foundry"), "verify", "--db", dir_.path() + "/db"});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
}

// A campaign that runs out of new puzzles exits 1 with its summary on stdout
// and the reason on stderr, where errors go.
TEST_F(CampaignTest, AnExhaustedRunSaysWhyOnStderr) {
  auto r = RunCommand({Bin("foundry"), "run", "--family", "secret-number", "--set", "digits=2",
                       "--set", "max_rules=1", "--set", "min_rules=1", "--count", "1000000", "--db",
                       dir_.path() + "/db", "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(" exhausted: candidates "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("gave nothing new"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.rfind("foundry: exhausted: stored ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("gave nothing new"), std::string::npos) << r.err;
}

// A zero-padded seed is the decimal number a script meant (CLI11 alone
// read "010" as octal 8), and one past 64 bits is refused rather than read
// as the largest seed (common/number_options.h).
TEST_F(CampaignTest, SeedsAreDecimalNumbers) {
  const auto run = [&](const std::string& seed) {
    return RunCommand({Bin("foundry"), "run", "--family", "secret-number", "--count", "3", "--seed",
                       seed, "--db", dir_.path() + "/db", "--quiet"});
  };
  ASSERT_EQ(run("010").exit_code, 0);
  const auto again = run("10");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("duplicates 3"), std::string::npos)
      << "seed 010 was not seed 10: " << again.out;
  const auto huge = run("99999999999999999999");
  EXPECT_NE(huge.exit_code, 0);
  EXPECT_NE(huge.err.find("--seed: must be at most 18446744073709551615"), std::string::npos)
      << huge.err;
}

// A coordinator address without a port was dialled at gRPC's default, 443,
// and "HOST:-1" at 65535, each reported as an unreachable coordinator; the
// CLI and the console now name the typo (CheckDialAddress).
TEST_F(CampaignTest, ACoordinatorAddressWithoutAPortIsNamed) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{Bin("foundry"), "campaign", "list", "--coordinator", "localhost"},
        std::vector<std::string>{Bin("foundry"), "export", "--coordinator", "127.0.0.1:-1"},
        std::vector<std::string>{Bin("foundry-console"), "--coordinator", "localhost"}}) {
    const auto r = RunCommand(args);
    EXPECT_NE(r.exit_code, 0) << args[1];
    EXPECT_NE(r.err.find("' is not HOST:PORT (e.g. 127.0.0.1:7420)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("cannot reach"), std::string::npos) << r.err;
  }
}

// Progress written to a file (not a terminal) is a line every two seconds,
// and always the last state: a log of a run shorter than two seconds still
// ends with the count it reached (bench/store_growth.py reads these lines).
TEST_F(CampaignTest, AProgressLogEndsWithTheFinalCount) {
  auto r = RunCommand(
      {Bin("foundry"), "run", "--family", "sudoku", "--count", "30", "--db", dir_.path() + "/db"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("100.0%  30/30"), std::string::npos) << r.err;
}

// --level works for every family through the generic filter: a family with no
// level plumbing of its own (bulls-cows) stores only the level asked for, and
// a score range narrows it further. The export says so puzzle by puzzle.
TEST_F(CampaignTest, ALevelAskedForIsTheOnlyLevelStored) {
  const std::string db = dir_.path() + "/db";
  auto run = RunCommand({Bin("foundry"), "run", "--family", "bulls-cows", "--count", "40",
                         "--level", "expert", "--min-score", "0.8", "--db", db, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("stored 40"), std::string::npos) << run.out;
  auto out = RunCommand({Bin("foundry"), "export", "--db", db});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  int lines = 0;
  std::istringstream in(out.out);
  for (std::string line; std::getline(in, line); ++lines) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["difficulty"]["level"], "expert") << line;
    EXPECT_GE(j["difficulty"]["score"].get<double>(), 0.8) << line;
    EXPECT_EQ(j["params"]["level"], "expert") << line;
  }
  EXPECT_EQ(lines, 40);
}

// A misspelt family in a read is an error naming the known families, not an
// empty result that looks like an empty store.
TEST_F(CampaignTest, AnUnknownFamilyInAReadIsAnError) {
  const std::string db = dir_.path() + "/db";
  auto run = RunCommand(
      {Bin("foundry"), "run", "--family", "sudoku", "--count", "5", "--db", db, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto r = RunCommand({Bin("foundry"), "export", "--db", db, "--family", "sudoko"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("unknown family 'sudoko' (known: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sudoku"), std::string::npos) << r.err;
}

TEST_F(CampaignTest, BadInputIsAOneLineErrorAndStoresNothing) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 0, 1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--family", "nope", "--count", "5"}, "unknown family 'nope'"},
      {{"--family", "secret-number", "--count", "0"}, "count must be 1..100000000"},
      {{"--family", "secret-number", "--count", "-5"}, "--count must be 1..100000000, got '-5'"},
      {{"--family", "secret-number", "--count", "5", "--set", "digits=9"}, "'digits' must be 2..6"},
      {{"--family", "secret-number", "--count", "5", "--set", "colour=red"},
       "unknown parameter 'colour'"},
      {{"--family", "secret-number", "--count", "5", "--set", "digits"}, "--set expects key=value"},
      {{"--family", "secret-number", "--count", "5", "--set", "digits=4", "--set", "digits=3"},
       "--set digits is given twice ('digits=4' and 'digits=3')"},
      {{"--family", "secret-number", "--count", "5", "--priority", "-5"},
       "--priority must be 0..1000000, got '-5'"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {Bin("foundry"), "campaign", "submit", "--coordinator",
                                     cluster.address()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto r = RunCommand(argv);
    EXPECT_EQ(r.exit_code, 1) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  auto list = RunCommand({Bin("foundry"), "campaign", "list", "--coordinator", cluster.address()});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_TRUE(list.out.empty()) << list.out;
  EXPECT_NE(list.err.find("no campaigns on " + cluster.address()), std::string::npos) << list.err;
}

}  // namespace
// foundry verify checks batches in parallel: failures in any batch are found
// and reported in line order, and a duplicate across batches is caught.
TEST_F(CampaignTest, VerifyFindsEveryBadLineInOrderAcrossBatches) {
  std::vector<std::string> lines = EmbeddedLines(
      dir_.path() + "/verify-db", {"--family", "sudoku", "--count", "9000", "--seed", "5"});
  ASSERT_EQ(lines.size(), 9000u);

  auto wrong_id = nlohmann::json::parse(lines[4999]);
  wrong_id["id"] = "su-0123456789abcdef0123456789abcdef";
  lines[4999] = wrong_id.dump();  // line 5000, second batch
  lines[6999] = "{not json";      // line 7000
  lines[8999] = lines[99];        // line 9000, third batch: line 100 again
  const std::string file = dir_.path() + "/tampered.jsonl";
  {
    std::ofstream out(file);
    for (const auto& line : lines) out << line << "\n";
    out << "  \t\n\n";  // blank lines at the end are skipped, as `foundry import` skips them
  }
  auto verified = RunCommand({Bin("foundry"), "verify", file});
  EXPECT_EQ(verified.exit_code, 1);
  EXPECT_NE(verified.out.find("verified 9,000 puzzles: 8,997 ok, 3 failed"), std::string::npos)
      << verified.out;
  const size_t a = verified.err.find(file + ":5000 ");
  const size_t b = verified.err.find(file + ":7000");
  const size_t c = verified.err.find(file + ":9000 ");
  ASSERT_NE(a, std::string::npos) << verified.err;
  ASSERT_NE(b, std::string::npos) << verified.err;
  ASSERT_NE(c, std::string::npos) << verified.err;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_NE(verified.err.find("id should be"), std::string::npos) << verified.err;
  EXPECT_NE(verified.err.find("same canonical key"), std::string::npos) << verified.err;
}

// A puzzle's recorded difficulty is part of what verify checks: a line whose
// level, score or details differ from what the family's Verify grades again
// fails, naming both; a line that records no difficulty claims none.
TEST_F(CampaignTest, VerifyComparesTheRecordedDifficultyWithItsRegrade) {
  const std::string db = dir_.path() + "/grades-db";
  std::vector<nlohmann::json> lines;
  for (const std::string& line :
       EmbeddedLines(db, {"--family", "sudoku", "--count", "30", "--seed", "3"})) {
    lines.push_back(nlohmann::json::parse(line));
  }
  ASSERT_EQ(lines.size(), 30u);

  const std::string level = lines[2]["difficulty"]["level"];
  lines[2]["difficulty"]["level"] = level == "expert" ? "easy" : "expert";  // line 3
  lines[4]["difficulty"]["score"] = lines[4]["difficulty"]["score"].get<double>() + 0.001;
  lines[6]["difficulty"]["clues"] = lines[6]["difficulty"]["clues"].get<int>() + 1;  // line 7
  lines[8].erase("difficulty");  // line 9: no claim, nothing to compare
  const std::string file = dir_.path() + "/regraded.jsonl";
  {
    std::ofstream out(file);
    for (const auto& line : lines) out << line.dump() << "\n";
  }
  auto verified = RunCommand({Bin("foundry"), "verify", file});
  EXPECT_EQ(verified.exit_code, 1);
  EXPECT_NE(verified.out.find("verified 30 puzzles: 27 ok, 3 failed"), std::string::npos)
      << verified.out;
  for (int line : {3, 5, 7}) {
    const size_t at = verified.err.find(file + ":" + std::to_string(line) + " ");
    ASSERT_NE(at, std::string::npos) << line << "\n" << verified.err;
    EXPECT_NE(verified.err.find("graded again", at), std::string::npos) << verified.err;
  }
  EXPECT_EQ(verified.err.find(file + ":9 "), std::string::npos) << verified.err;

  // The store itself, whose grades are the generator's, verifies clean.
  auto store = RunCommand({Bin("foundry"), "verify", "--db", db});
  EXPECT_EQ(store.exit_code, 0) << store.out << store.err;
}

// CLI11 reads "-5" into an unsigned option as 2^64 - 5: --limit -5 exported
// everything and --seed -1 ran seed 2^64 - 1. Each is refused by name now.
TEST_F(CampaignTest, NegativeValuesOfUnsignedFlagsAreRefusedByName) {
  const std::string db = dir_.path() + "/never-made";
  const std::vector<std::vector<std::string>> commands = {
      {"export", "--db", db, "--limit", "-5"},
      {"sample", "--db", db, "--seed", "-3"},
      {"run", "--family", "sudoku", "--count", "3", "--seed", "-1", "--db", db, "--quiet"},
  };
  for (const auto& args : commands) {
    std::vector<std::string> argv = {Bin("foundry")};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = RunCommand(argv);
    EXPECT_NE(r.exit_code, 0) << args[0];
    EXPECT_NE(r.err.find("must be 0 or more, got '-"), std::string::npos) << args[0] << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(db)) << "nothing may run on a refused flag";
}

// A date filter names a real day: strptime took 2026-02-30 and timegm rolled
// it over to 2 March. The flag is checked before the store is opened, so a
// real day reaches the (missing) store's own error.
TEST_F(CampaignTest, AFilterDateThatIsNoDayIsRefused) {
  const std::string db = dir_.path() + "/no-store";
  for (const char* date : {"2026-02-30", "2023-02-29", "2026-04-31T10:00:00", "2026-13-01"}) {
    auto r = RunCommand({Bin("foundry"), "export", "--db", db, "--created-after", date});
    EXPECT_EQ(r.exit_code, 1) << date;
    EXPECT_NE(r.err.find(std::string("--created-after must be ms since 1970 or a UTC date like "
                                     "2026-11-22 or 2026-11-22T10:30:00, got '") +
                         date + "'"),
              std::string::npos)
        << r.err;
  }
  for (const char* date : {"2024-02-29", "2026-11-30T23:59:59Z", "1796081553371"}) {
    auto r = RunCommand({Bin("foundry"), "export", "--db", db, "--created-before", date});
    EXPECT_EQ(r.exit_code, 1) << date;
    EXPECT_NE(r.err.find("no store at"), std::string::npos) << date << r.err;
  }
}

// The command line promises `foundry console --coordinator ADDR [--listen
// HOST:PORT]`: it is foundry-console under the foundry command, with the
// same flags and help.
TEST_F(CampaignTest, FoundryConsoleServesTheWebConsole) {
  auto help = RunCommand({Bin("foundry"), "console", "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("a web console for a Puzzle Foundry coordinator"), std::string::npos)
      << help.out;
  auto missing = RunCommand({Bin("foundry"), "console"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("--coordinator is required"), std::string::npos) << missing.err;

  LocalCluster cluster(dir_.path() + "/db", dir_.path(), /*workers=*/0, 1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  Subprocess console(
      {Bin("foundry"), "console", "--coordinator", cluster.address(), "--listen", "127.0.0.1:0"},
      dir_.path() + "/console.log");
  const int port = WaitForNumberAfter(console, "http://127.0.0.1:");
  ASSERT_GT(port, 0) << console.Log();
  auto session = RunCommand(
      {"/usr/bin/curl", "-sf", "http://127.0.0.1:" + std::to_string(port) + "/api/session"});
  ASSERT_EQ(session.exit_code, 0) << session.err;
  EXPECT_EQ(nlohmann::json::parse(session.out)["coordinator"], cluster.address()) << session.out;
  // A script reads the API without a session cookie; it cannot act without one.
  const std::string api = "http://127.0.0.1:" + std::to_string(port) + "/api/";
  auto campaigns = RunCommand({"/usr/bin/curl", "-s", "-w", " %{http_code}", api + "campaigns"});
  EXPECT_EQ(campaigns.out, R"({"campaigns":[]} 200)") << campaigns.err;
  auto post =
      RunCommand({"/usr/bin/curl", "-s", "-w", " %{http_code}", "-d", "{}", api + "campaigns"});
  EXPECT_NE(post.out.find("no session"), std::string::npos) << post.out;
  EXPECT_TRUE(post.out.ends_with(" 401")) << post.out;
  // Text that gRPC could not carry is refused by the parameter's name.
  auto query =
      RunCommand({"/usr/bin/curl", "-s", "-w", " %{http_code}", api + "store/query?family=%ff"});
  EXPECT_EQ(query.out, R"({"error":"the query parameter family is not valid UTF-8 text"} 400)");
  // Other methods get an answer in the API's form too.
  auto put =
      RunCommand({"/usr/bin/curl", "-s", "-w", " %{http_code}", "-X", "PUT", api + "campaigns"});
  EXPECT_EQ(put.out, R"({"error":"PUT is not allowed: the console takes GET and POST"} 405)");
  auto foo = RunCommand({"/usr/bin/curl", "-s", "-w", " %{http_code}", "-X", "FOO", api + "x"});
  EXPECT_EQ(foo.out,
            R"j({"error":"the console cannot read this request (its method or its line)"} 400)j");
  EXPECT_EQ(console.Stop(), 0) << console.Log();
}

// `foundry run` stores in ./foundry-db unless told; the commands that read a
// store use it too when given no --db or --coordinator, and say so when it
// is not there.
TEST_F(CampaignTest, ReadsUseTheStoreRunMadeByDefault) {
  const std::string here = "cd '" + dir_.path() + "' && '" + Bin("foundry") + "' ";
  auto none = RunCommand({"/bin/sh", "-c", here + "stats"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("none needed where `foundry run` made ./foundry-db"), std::string::npos)
      << none.err;
  auto run = RunCommand({"/bin/sh", "-c", here + "run --family sudoku --count 7 --quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto stats = RunCommand({"/bin/sh", "-c", here + "stats"});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("7 puzzles stored"), std::string::npos) << stats.out;
  auto exported = RunCommand({"/bin/sh", "-c", here + "export"});
  EXPECT_EQ(IdsOf(exported.out).size(), 7u) << exported.err;
  auto verified = RunCommand({"/bin/sh", "-c", here + "verify"});
  EXPECT_NE(verified.out.find("verified 7 puzzles: 7 ok"), std::string::npos) << verified.err;
}

}  // namespace foundry::testing
