// The puzzle store as a service, against a real coordinator and RocksDB over
// gRPC on 127.0.0.1: paging while a campaign writes, Sample's uniformity,
// exact play counts under concurrent clients, import of good and bad lines,
// and the CLI commands on top (stats, sample, show --svg, play).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "foundry/v1/store.grpc.pb.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;

std::unique_ptr<grpc::ClientContext> Ctx() {
  auto c = std::make_unique<grpc::ClientContext>();
  c->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return c;
}

std::unique_ptr<v1::PuzzleStore::Stub> StoreStub(const std::string& address) {
  return v1::PuzzleStore::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

// A coordinator (no workers) on a store of `count` secret-number puzzles
// made by `foundry run`.
class StoreServiceTest : public ::testing::Test {
 protected:
  void Start(uint64_t count, int workers = 0) {
    if (count > 0) {
      auto run = RunCommand({Bin("foundry"), "run", "--family", "secret-number", "--count",
                             std::to_string(count), "--seed", "5", "--db", db(), "--quiet"});
      ASSERT_EQ(run.exit_code, 0) << run.err;
    }
    cluster_ = std::make_unique<LocalCluster>(db(), dir_.path(), workers, 1);
    ASSERT_TRUE(cluster_->ok());
    stub_ = StoreStub(cluster_->address());
  }
  std::string db() const { return dir_.path() + "/db"; }

  std::vector<std::string> QueryAll(const v1::PuzzleFilter& filter, uint32_t page_size) {
    std::vector<std::string> ids;
    std::string token;
    do {
      v1::QueryRequest req;
      *req.mutable_filter() = filter;
      req.set_page_size(page_size);
      req.set_page_token(token);
      v1::QueryResponse resp;
      grpc::Status s = stub_->QueryPuzzles(Ctx().get(), req, &resp);
      EXPECT_TRUE(s.ok()) << s.error_message();
      if (!s.ok()) break;
      for (const auto& p : resp.puzzles()) ids.push_back(p.id());
      token = resp.next_page_token();
    } while (!token.empty());
    return ids;
  }

  TempDir dir_;
  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<v1::PuzzleStore::Stub> stub_;
};

// Every puzzle stored when paging starts comes back exactly once, however
// many a campaign adds meanwhile; nothing comes back twice.
TEST_F(StoreServiceTest, PagingUnderWritesReturnsEachPuzzleOnce) {
  Start(2000, /*workers=*/2);
  const std::vector<std::string> before = ExportedIds(cluster_->address());
  ASSERT_EQ(before.size(), 2000u);
  const std::string id = SubmitCampaign(
      cluster_->address(),
      // Far more than the paging takes to write, so that the campaign is
      // still running when it ends on any machine; the cluster's stop ends it.
      {"--family", "secret-number", "--count", "1000000", "--seed", "6", "--job-size", "256"});
  ASSERT_TRUE(WaitUntilStored(cluster_->address(), id, 500));
  for (const std::string level : {"", "easy"}) {
    v1::PuzzleFilter filter;
    filter.set_family("secret-number");
    filter.set_level(level);
    const std::vector<std::string> paged = QueryAll(filter, 37);
    const std::set<std::string> unique(paged.begin(), paged.end());
    EXPECT_EQ(unique.size(), paged.size()) << "a puzzle came back twice (level '" << level << "')";
    if (!level.empty()) continue;  // the level filter: uniqueness is what we can check
    for (const std::string& b : before) EXPECT_EQ(unique.count(b), 1u) << "missing " << b;
    EXPECT_GT(unique.size(), before.size()) << "the campaign's writes should show up too";
  }
  EXPECT_EQ(CampaignStatus(cluster_->address(), id).state, "CAMPAIGN_STATE_RUNNING")
      << "the campaign should still have been writing while we paged";
}

// Single-puzzle samples over a 30-puzzle store: chi-square with 29 degrees of
// freedom stays under its 99.9th percentile (58.30).
TEST_F(StoreServiceTest, SampleIsUniformAndHonoursExclusions) {
  Start(30);
  const std::vector<std::string> all = ExportedIds(cluster_->address());
  ASSERT_EQ(all.size(), 30u);
  std::map<std::string, int> hits;
  constexpr int kDraws = 6000;
  for (int i = 0; i < kDraws; ++i) {
    v1::SampleRequest req;
    req.mutable_filter()->set_family("secret-number");
    req.set_count(1);
    req.set_seed(static_cast<uint64_t>(i) + 1);
    v1::SampleResponse resp;
    ASSERT_TRUE(stub_->SamplePuzzles(Ctx().get(), req, &resp).ok());
    ASSERT_EQ(resp.puzzles_size(), 1);
    ++hits[resp.puzzles(0).id()];
  }
  ASSERT_EQ(hits.size(), 30u);
  double chi2 = 0;
  const double expected = kDraws / 30.0;
  for (const auto& [id, n] : hits) chi2 += (n - expected) * (n - expected) / expected;
  EXPECT_LT(chi2, 58.30);

  // 20 at once, excluding 15: 15 distinct puzzles, none excluded.
  v1::SampleRequest req;
  req.set_count(20);
  for (int i = 0; i < 15; ++i) req.add_exclude_ids(all[i]);
  v1::SampleResponse resp;
  ASSERT_TRUE(stub_->SamplePuzzles(Ctx().get(), req, &resp).ok());
  std::set<std::string> got;
  for (const auto& p : resp.puzzles()) got.insert(p.id());
  EXPECT_EQ(got.size(), 15u);
  EXPECT_EQ(resp.puzzles_size(), 15);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(got.count(all[i]), 0u);
}

TEST_F(StoreServiceTest, PlayCountsAreExactUnderConcurrentClients) {
  Start(10);
  const std::string id = ExportedIds(cluster_->address()).front();
  constexpr int kClients = 6, kPlays = 200;
  std::vector<std::thread> clients;
  std::atomic<int> failures{0};
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      auto stub = StoreStub(cluster_->address());  // one channel per client
      for (int i = 0; i < kPlays; ++i) {
        v1::RecordPlayRequest req;
        req.set_id(id);
        req.set_solved(i % 2 == 0);
        req.set_seconds(c + 1);
        v1::RecordPlayResponse resp;
        if (!stub->RecordPlay(Ctx().get(), req, &resp).ok()) ++failures;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(failures.load(), 0);
  v1::GetPuzzleRequest req;
  req.set_id(id);
  v1::Puzzle p;
  ASSERT_TRUE(stub_->GetPuzzle(Ctx().get(), req, &p).ok());
  EXPECT_EQ(p.plays().solved(), uint64_t{kClients * kPlays / 2});
  EXPECT_EQ(p.plays().failed(), uint64_t{kClients * kPlays / 2});
  EXPECT_NEAR(p.plays().mean_solve_seconds(), 3.5, 1e-9);  // clients 1..6 s, equally often
  EXPECT_EQ(p.observed().plays(), uint64_t{kClients * kPlays});
  EXPECT_FALSE(p.observed().level().empty());

  v1::RecordPlayRequest bad;
  bad.set_id("sn-00000000000000000000000000000000");
  v1::RecordPlayResponse resp;
  EXPECT_EQ(stub_->RecordPlay(Ctx().get(), bad, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  bad.set_id(id);
  bad.set_seconds(-3);
  EXPECT_EQ(stub_->RecordPlay(Ctx().get(), bad, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// A batch read answers in the order asked, the same puzzles as one GetPuzzle
// each (plays included), lists the unknown ids, and hides solutions unless
// asked.
TEST_F(StoreServiceTest, GetPuzzlesAnswersManyIdsInOrderAndListsTheMissing) {
  Start(1200);
  std::vector<std::string> ids = ExportedIds(cluster_->address());
  ASSERT_EQ(ids.size(), 1200u);
  v1::RecordPlayRequest play;
  play.set_id(ids[7]);
  play.set_solved(true);
  play.set_seconds(30);
  v1::RecordPlayResponse played;
  ASSERT_TRUE(stub_->RecordPlay(Ctx().get(), play, &played).ok());

  const std::string unknown = "sn-00000000000000000000000000000000";
  v1::GetPuzzlesRequest req;
  for (int i = 999; i >= 0; i -= 2) req.add_ids(ids[i]);  // 500, in reverse
  req.add_ids(unknown);
  req.add_ids(ids[7]);  // asked twice
  req.set_include_solution(true);
  v1::GetPuzzlesResponse resp;
  grpc::Status s = stub_->GetPuzzles(Ctx().get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.puzzles_size(), 501);
  ASSERT_EQ(resp.missing_size(), 1);
  EXPECT_EQ(resp.missing(0), unknown);
  for (int k = 0; k < 500; ++k) {
    v1::GetPuzzleRequest one;
    one.set_id(ids[999 - 2 * k]);
    one.set_include_solution(true);
    v1::Puzzle expected;
    ASSERT_TRUE(stub_->GetPuzzle(Ctx().get(), one, &expected).ok());
    ASSERT_EQ(resp.puzzles(k).SerializeAsString(), expected.SerializeAsString())
        << "position " << k;
  }
  EXPECT_EQ(resp.puzzles(500).id(), ids[7]);
  EXPECT_EQ(resp.puzzles(500).plays().solved(), 1u);
  EXPECT_FALSE(resp.puzzles(500).solution_json().empty());

  req.set_include_solution(false);
  resp.Clear();
  ASSERT_TRUE(stub_->GetPuzzles(Ctx().get(), req, &resp).ok());
  for (const auto& p : resp.puzzles()) EXPECT_TRUE(p.solution_json().empty()) << p.id();

  v1::GetPuzzlesRequest too_many;
  for (int i = 0; i < 1001; ++i) too_many.add_ids(ids[i]);
  resp.Clear();
  s = stub_->GetPuzzles(Ctx().get(), too_many, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("1..1000"), std::string::npos) << s.error_message();
}

// An export with good lines, duplicates and six kinds of bad line, imported
// into a second store: the good ones are stored, each bad one is reported
// with its line number, and nothing bad gets in.
TEST_F(StoreServiceTest, ImportKeepsGoodLinesAndReportsBadOnes) {
  Start(0);
  TempDir source;
  const std::vector<std::string> lines = EmbeddedLines(
      source.path() + "/db", {"--family", "secret-number", "--count", "40", "--seed", "9"});
  ASSERT_EQ(lines.size(), 40u);

  std::vector<std::string> file(lines.begin(), lines.end());
  file.push_back(lines[0]);     // line 41: a duplicate within the file
  file.push_back("{not json");  // 42
  auto wrong = nlohmann::json::parse(lines[1]);
  wrong["solution"]["number"] = wrong["solution"]["number"].get<int>() == 100 ? 101 : 100;
  file.push_back(wrong.dump());  // 43: a wrong solution
  auto unknown = nlohmann::json::parse(lines[2]);
  unknown["family"] = "kakuro";
  file.push_back(unknown.dump());  // 44: an unknown family
  auto tampered = nlohmann::json::parse(lines[3]);
  tampered["id"] = "sn-0123456789abcdef0123456789abcdef";
  file.push_back(tampered.dump());  // 45: an id that is not the puzzle's
  auto no_solution = nlohmann::json::parse(lines[4]);
  no_solution.erase("solution");
  file.push_back(no_solution.dump());  // 46: no solution
  auto huge = nlohmann::json::parse(lines[5]);
  huge["puzzle"]["note"] = std::string(17 << 20, 'x');
  file.push_back(huge.dump());  // 47: more than one message may hold
  const std::string path = dir_.path() + "/import.jsonl";
  {
    std::ofstream out(path);
    for (const auto& l : file) out << l << "\n";
  }
  auto imported =
      RunCommand({Bin("foundry"), "import", path, "--coordinator", cluster_->address()});
  EXPECT_EQ(imported.exit_code, 1) << "some lines were rejected";
  EXPECT_NE(imported.out.find("47 lines: 40 stored, 1 already stored, 6 rejected"),
            std::string::npos)
      << imported.out.substr(0, 2000) << imported.err;
  for (const char* at : {":42: rejected", ":43: rejected", ":44: rejected", ":45: rejected",
                         ":46: rejected", ":47: rejected: 17.0 MiB, more than the 16 MiB"}) {
    EXPECT_NE(imported.out.find(at), std::string::npos) << at << "\n" << imported.out;
  }
  EXPECT_NE(imported.out.find("unknown family"), std::string::npos) << imported.out;
  EXPECT_NE(imported.out.find("does not match the puzzle"), std::string::npos) << imported.out;

  const std::vector<std::string> stored = ExportedIds(cluster_->address());
  std::vector<std::string> good;
  for (const auto& line : lines) good.push_back(nlohmann::json::parse(line)["id"]);
  EXPECT_EQ(std::set<std::string>(stored.begin(), stored.end()),
            std::set<std::string>(good.begin(), good.end()));
  // Importing the same file again stores nothing new.
  auto again = RunCommand({Bin("foundry"), "import", path, "--coordinator", cluster_->address()});
  EXPECT_NE(again.out.find("0 stored, 41 already stored, 6 rejected"), std::string::npos)
      << again.out;
  EXPECT_EQ(ExportedIds(cluster_->address()).size(), 40u);
  // A directory opens on Linux and reads as no lines: refused, not "0 lines".
  auto directory =
      RunCommand({Bin("foundry"), "import", dir_.path(), "--coordinator", cluster_->address()});
  EXPECT_EQ(directory.exit_code, 1);
  EXPECT_NE(directory.err.find("it is a directory"), std::string::npos) << directory.err;
  // A file that is not there: the reason, not only the path.
  auto missing = RunCommand({Bin("foundry"), "import", dir_.path() + "/none.jsonl", "--coordinator",
                             cluster_->address()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("none.jsonl: No such file or directory"), std::string::npos)
      << missing.err;
}

// The CLI on top: stats, sample, show with SVG, play with a right and a
// wrong answer (recorded), export as CSV.
TEST_F(StoreServiceTest, CommandLine) {
  Start(50);
  const std::string addr = cluster_->address();
  auto stats = RunCommand({Bin("foundry"), "stats", "--coordinator", addr, "--json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  auto s = nlohmann::json::parse(stats.out);
  EXPECT_EQ(s["puzzles"], 50);

  auto sample =
      RunCommand({Bin("foundry"), "sample", "--coordinator", addr, "-n", "3", "--format", "ids"});
  ASSERT_EQ(sample.exit_code, 0) << sample.err;
  std::istringstream ids(sample.out);
  std::string id;
  std::getline(ids, id);
  ASSERT_EQ(id.size(), 35u) << sample.out;

  const std::string svg_path = dir_.path() + "/p.svg";
  auto show = RunCommand(
      {Bin("foundry"), "show", id, "--coordinator", addr, "--solution", "--svg", svg_path});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("Answer: "), std::string::npos) << show.out;
  std::ifstream svg_in(svg_path);
  std::string svg((std::istreambuf_iterator<char>(svg_in)), {});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 80);

  auto got = RunCommand({Bin("foundry"), "get", id, "--coordinator", addr});
  const auto puzzle = nlohmann::json::parse(got.out);
  const std::string answer = std::to_string(puzzle["solution"]["number"].get<int>());
  const std::string wrong = answer == "100" ? "101" : "100";
  // `play` reads the answer from stdin: a typo first (retyped), then the answer.
  auto play_right = RunCommand({"/bin/sh", "-c",
                                "printf 'abc\\n" + answer + "\\n' | " + Bin("foundry") + " play " +
                                    id + " --coordinator " + addr});
  EXPECT_EQ(play_right.exit_code, 0) << play_right.out << play_right.err;
  EXPECT_NE(play_right.out.find("Right!"), std::string::npos) << play_right.out;
  auto play_wrong = RunCommand(
      {"/bin/sh", "-c",
       "echo " + wrong + " | " + Bin("foundry") + " play " + id + " --coordinator " + addr});
  EXPECT_EQ(play_wrong.exit_code, 2) << play_wrong.out << play_wrong.err;
  got = RunCommand({Bin("foundry"), "get", id, "--coordinator", addr});
  const auto after = nlohmann::json::parse(got.out);
  EXPECT_EQ(after["plays"]["solved"], 1);
  EXPECT_EQ(after["plays"]["failed"], 1);

  auto csv = RunCommand({Bin("foundry"), "export", "--coordinator", addr, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0);
  EXPECT_EQ(csv.out.rfind("id,family,level,score,", 0), 0u);
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 51);
}

}  // namespace
}  // namespace foundry::testing
