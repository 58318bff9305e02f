// Bad input, table-driven, against a real coordinator over gRPC: every bad
// request gets the right status code and a message a person understands,
// and the stored puzzles are unchanged afterwards.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"
#include "foundry/v1/worker.grpc.pb.h"
#include "puzzles/fingerprint.h"
#include "puzzles/registry.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;

struct Case {
  std::string name;
  std::function<grpc::Status()> call;
  grpc::StatusCode code;
  std::string message;  // a fragment the message must contain
};

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A store with puzzles in it, made before the server starts.
    auto run = RunCommand({Bin("foundry"), "run", "--family", "secret-number", "--count", "300",
                           "--db", db(), "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    cluster_ = std::make_unique<LocalCluster>(db(), dir_.path(), /*workers=*/0, 1);
    ASSERT_TRUE(cluster_->ok());
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(64 << 20);
    auto channel =
        grpc::CreateCustomChannel(cluster_->address(), grpc::InsecureChannelCredentials(), args);
    campaigns_ = v1::CampaignService::NewStub(channel);
    store_ = v1::PuzzleStore::NewStub(channel);
    workers_ = v1::WorkerService::NewStub(channel);
  }

  std::string db() const { return dir_.path() + "/db"; }

  static std::unique_ptr<grpc::ClientContext> Ctx() {
    auto c = std::make_unique<grpc::ClientContext>();
    c->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return c;
  }

  grpc::Status Submit(const std::string& family, uint64_t count,
                      std::map<std::string, std::string> params = {}, uint32_t job_size = 0) {
    v1::SubmitCampaignRequest req;
    req.mutable_spec()->set_family(family);
    req.mutable_spec()->set_count(count);
    req.mutable_spec()->set_job_size(job_size);
    for (auto& [k, v] : params) (*req.mutable_spec()->mutable_params())[k] = v;
    v1::Campaign resp;
    return campaigns_->SubmitCampaign(Ctx().get(), req, &resp);
  }

  // A campaign asking for a level and/or a score range through the spec's
  // own fields (what a client in any language would set).
  grpc::Status SubmitGoal(const std::string& family, const std::string& level,
                          std::optional<double> min_score, std::optional<double> max_score,
                          std::map<std::string, std::string> params = {}) {
    v1::SubmitCampaignRequest req;
    req.mutable_spec()->set_family(family);
    req.mutable_spec()->set_count(10);
    req.mutable_spec()->set_level(level);
    if (min_score) req.mutable_spec()->set_min_score(*min_score);
    if (max_score) req.mutable_spec()->set_max_score(*max_score);
    for (auto& [k, v] : params) (*req.mutable_spec()->mutable_params())[k] = v;
    v1::Campaign resp;
    return campaigns_->SubmitCampaign(Ctx().get(), req, &resp);
  }

  grpc::Status GetPuzzles(const std::vector<std::string>& ids) {
    v1::GetPuzzlesRequest req;
    for (const auto& id : ids) req.add_ids(id);
    v1::GetPuzzlesResponse resp;
    return store_->GetPuzzles(Ctx().get(), req, &resp);
  }
  grpc::Status GetPuzzle(const std::string& id) {
    v1::GetPuzzleRequest req;
    req.set_id(id);
    v1::Puzzle p;
    return store_->GetPuzzle(Ctx().get(), req, &p);
  }

  grpc::Status Query(const std::string& family, const std::string& level, uint32_t page_size,
                     const std::string& token) {
    v1::QueryRequest req;
    req.mutable_filter()->set_family(family);
    req.mutable_filter()->set_level(level);
    req.set_page_size(page_size);
    req.set_page_token(token);
    v1::QueryResponse resp;
    return store_->QueryPuzzles(Ctx().get(), req, &resp);
  }

  grpc::Status SubmitChunks(const std::vector<v1::ResultChunk>& chunks) {
    auto ctx = Ctx();
    v1::SubmitResponse resp;
    auto writer = workers_->SubmitResults(ctx.get(), &resp);
    for (const auto& c : chunks) {
      if (!writer->Write(c)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }

  // A live lease on a running campaign (there are no workers to take it),
  // for a worker of its own: a malformed submission quarantines its sender.
  v1::Job LeaseJob() {
    v1::LeaseRequest req;
    req.set_worker_id("bad-input-test-" + std::to_string(++workers_made_));
    req.set_generation_fingerprint(puzzles::GenerationFingerprint());
    v1::LeaseResponse resp;
    EXPECT_TRUE(workers_->Lease(Ctx().get(), req, &resp).ok());
    EXPECT_TRUE(resp.has_job());
    return resp.job();
  }

  int workers_made_ = 0;

  static v1::ResultChunk Chunk(const v1::Job& job, bool last, uint64_t candidates) {
    v1::ResultChunk c;
    c.set_lease_id(job.lease_id());
    c.set_last(last);
    if (last) c.mutable_stats()->set_candidates(candidates);
    return c;
  }

  TempDir dir_;
  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<v1::CampaignService::Stub> campaigns_;
  std::unique_ptr<v1::PuzzleStore::Stub> store_;
  std::unique_ptr<v1::WorkerService::Stub> workers_;
};

TEST_F(BadInputTest, EveryBadRequestGetsTheRightCodeAndAClearMessage) {
  const std::string before =
      RunCommand({Bin("foundry"), "export", "--coordinator", cluster_->address()}).out;
  ASSERT_FALSE(before.empty());

  // One campaign that runs (no workers) so that there are real leases to abuse.
  ASSERT_TRUE(Submit("secret-number", 1000, {}, 100).ok());
  const v1::Job job = LeaseJob();
  const std::string some_id = ExportedIds(cluster_->address()).front();
  const uint64_t size = job.end_index() - job.first_index();
  using C = grpc::StatusCode;

  std::vector<Case> cases = {
      {"unknown family", [&] { return Submit("sudokku", 10); }, C::INVALID_ARGUMENT,
       "unknown family 'sudokku'"},
      {"empty family", [&] { return Submit("", 10); }, C::INVALID_ARGUMENT, "unknown family ''"},
      {"count 0", [&] { return Submit("secret-number", 0); }, C::INVALID_ARGUMENT,
       "count must be 1..100000000, got 0"},
      {"count above limit", [&] { return Submit("secret-number", 100000001); }, C::INVALID_ARGUMENT,
       "count must be"},
      {"count 2^64-1", [&] { return Submit("secret-number", UINT64_MAX); }, C::INVALID_ARGUMENT,
       "count must be"},
      {"unknown param",
       [&] {
         return Submit("secret-number", 10, {{"colour", "red"}});
       },
       C::INVALID_ARGUMENT, "unknown parameter 'colour' (known: "},
      {"param below range",
       [&] {
         return Submit("secret-number", 10, {{"digits", "1"}});
       },
       C::INVALID_ARGUMENT, "'digits' must be 2..6, got '1'"},
      {"param above range",
       [&] {
         return Submit("secret-number", 10, {{"digits", "7"}});
       },
       C::INVALID_ARGUMENT, "'digits' must be 2..6"},
      {"param not a number",
       [&] {
         return Submit("secret-number", 10, {{"digits", "three"}});
       },
       C::INVALID_ARGUMENT, "got 'three'"},
      {"param empty",
       [&] {
         return Submit("secret-number", 10, {{"digits", ""}});
       },
       C::INVALID_ARGUMENT, "'digits' must be"},
      {"param overflow",
       [&] {
         return Submit("secret-number", 10, {{"digits", "99999999999999999999999"}});
       },
       C::INVALID_ARGUMENT, "'digits' must be"},
      {"param trailing junk",
       [&] {
         return Submit("secret-number", 10, {{"digits", "3x"}});
       },
       C::INVALID_ARGUMENT, "'digits' must be"},
      {"bad bool",
       [&] {
         return Submit("secret-number", 10, {{"allow_redundant", "maybe"}});
       },
       C::INVALID_ARGUMENT, "'allow_redundant' must be true|false"},
      {"inconsistent params",
       [&] {
         return Submit("secret-number", 10, {{"min_rules", "9"}, {"max_rules", "3"}});
       },
       C::INVALID_ARGUMENT, "min_rules"},
      {"job size too big", [&] { return Submit("secret-number", 10, {}, 5'000'000); },
       C::INVALID_ARGUMENT, "job_size must be"},
      {"unknown level", [&] { return SubmitGoal("zebra", "insane", {}, {}); }, C::INVALID_ARGUMENT,
       "level must be any|easy|medium|hard|expert, got 'insane'"},
      {"level param unknown",
       [&] {
         return Submit("balance", 10, {{"level", "hardest"}});
       },
       C::INVALID_ARGUMENT, "level must be any|easy|medium|hard|expert, got 'hardest'"},
      {"score above 1", [&] { return SubmitGoal("sudoku", "", 1.5, {}); }, C::INVALID_ARGUMENT,
       "min_score must be a number in 0..1"},
      {"score range empty", [&] { return SubmitGoal("sudoku", "", 0.8, 0.2); }, C::INVALID_ARGUMENT,
       "min_score 0.8 is above max_score 0.2"},
      {"score not a number",
       [&] {
         return Submit("sudoku", 10, {{"max_score", "high"}});
       },
       C::INVALID_ARGUMENT, "max_score must be a number in 0..1"},
      {"level contradicts params",
       [&] {
         return SubmitGoal("sudoku", "hard", {}, {}, {{"level", "easy"}});
       },
       C::INVALID_ARGUMENT, "give one of them"},
      {"unknown campaign",
       [&] {
         v1::GetCampaignRequest r;
         r.set_campaign_id("c-0000000000000000");
         v1::Campaign c;
         return campaigns_->GetCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign with id 'c-0000000000000000'"},
      {"empty campaign id",
       [&] {
         v1::GetCampaignRequest r;
         v1::Campaign c;
         return campaigns_->GetCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign with id ''"},
      {"cancel unknown campaign",
       [&] {
         v1::CancelCampaignRequest r;
         r.set_campaign_id("nope");
         v1::Campaign c;
         return campaigns_->CancelCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign"},
      {"malformed puzzle id", [&] { return GetPuzzle("xyz"); }, C::INVALID_ARGUMENT,
       "'xyz' is not a puzzle id"},
      {"empty puzzle id", [&] { return GetPuzzle(""); }, C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"uppercase puzzle id", [&] { return GetPuzzle("sn-0123456789ABCDEF0123456789ABCDEF"); },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"puzzle id too long", [&] { return GetPuzzle("sn-0123456789abcdef0123456789abcdef00"); },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"unknown puzzle", [&] { return GetPuzzle("sn-0123456789abcdef0123456789abcdef"); },
       C::NOT_FOUND, "no puzzle with id"},
      {"batch read of no ids", [&] { return GetPuzzles({}); }, C::INVALID_ARGUMENT,
       "ids must hold 1..1000 puzzle ids, got 0"},
      {"batch read of 1001 ids",
       [&] {
         return GetPuzzles(std::vector<std::string>(1001, "sn-0123456789abcdef0123456789abcdef"));
       },
       C::INVALID_ARGUMENT, "got 1001"},
      {"batch read with a malformed id",
       [&] {
         return GetPuzzles({"sn-0123456789abcdef0123456789abcdef", "nope"});
       },
       C::INVALID_ARGUMENT, "'nope' is not a puzzle id"},
      {"page too large", [&] { return Query("", "", 5000, ""); }, C::INVALID_ARGUMENT,
       "page_size must be 1..1000"},
      {"bad page token", [&] { return Query("", "", 10, "not-a-token"); }, C::INVALID_ARGUMENT,
       "invalid page token"},
      {"token of another filter",
       [&] {
         v1::QueryRequest q;
         q.set_page_size(1);
         v1::QueryResponse first;
         store_->QueryPuzzles(Ctx().get(), q, &first);
         return Query("secret-number", "", 10, first.next_page_token());
       },
       C::INVALID_ARGUMENT, "invalid page token"},
      {"level without family", [&] { return Query("", "hard", 10, ""); }, C::INVALID_ARGUMENT,
       "needs a family"},
      {"unknown level", [&] { return Query("secret-number", "impossible", 10, ""); },
       C::INVALID_ARGUMENT, "level must be easy|medium|hard|expert"},
      {"lease without worker id",
       [&] {
         v1::LeaseRequest r;
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "worker_id is required"},
      {"heartbeat unknown lease",
       [&] {
         v1::HeartbeatRequest r;
         r.set_lease_id("l-bogus");
         v1::HeartbeatResponse h;
         return workers_->Heartbeat(Ctx().get(), r, &h);
       },
       C::NOT_FOUND, "no lease 'l-bogus'"},
      {"submit unknown lease",
       [&] {
         v1::ResultChunk c;
         c.set_lease_id("l-bogus");
         c.set_last(true);
         return SubmitChunks({c});
       },
       C::NOT_FOUND, "no lease 'l-bogus'"},
      {"submit nothing", [&] { return SubmitChunks({}); }, C::INVALID_ARGUMENT, "empty submission"},
      {"chunks of two leases",
       [&] {
         auto a = Chunk(job, false, 0);
         auto b = Chunk(job, true, size);
         b.set_lease_id("l-other");
         return SubmitChunks({a, b});
       },
       C::INVALID_ARGUMENT, "same lease_id"},
      {"no last chunk", [&] { return SubmitChunks({Chunk(job, false, 0)}); }, C::INVALID_ARGUMENT,
       "before its last chunk"},
      {"wrong candidate count", [&] { return SubmitChunks({Chunk(LeaseJob(), true, size + 1)}); },
       C::INVALID_ARGUMENT, "job stats disagree"},
      {"index outside the job",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         c.add_puzzles()->set_index(j.end_index());
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "outside the job's range"},
      {"indices out of order",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         c.add_puzzles()->set_index(j.first_index() + 5);
         c.add_puzzles()->set_index(j.first_index() + 2);
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "out of order"},
      {"puzzle without its claimed id",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         auto* p = c.add_puzzles();
         p->set_index(j.first_index());
         p->mutable_difficulty()->set_level("easy");
         c.mutable_stats()->set_accepted(1);
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "without its claimed id"},
      {"submission of a quarantined worker",
       [&] {
         const auto j = LeaseJob();
         SubmitChunks({Chunk(j, true, size + 1)});
         v1::LeaseRequest r;
         r.set_worker_id("bad-input-test-" + std::to_string(workers_made_));
         r.set_generation_fingerprint(puzzles::GenerationFingerprint());
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::PERMISSION_DENIED, "is quarantined: sent a malformed generation job"},
      {"lease of another generation fingerprint",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("old");
         r.set_generation_fingerprint("00000000deadbeef");
         r.set_build("0.0.1");
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::FAILED_PRECONDITION, "generation fingerprint '00000000deadbeef' (build '0.0.1')"},
      {"lease without a generation fingerprint",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("anon");
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::FAILED_PRECONDITION, "generation fingerprint ''"},
      {"oversized message",
       [&] {
         auto c = Chunk(job, true, size);
         c.add_puzzles()->set_puzzle_json(std::string(17 << 20, 'x'));
         return SubmitChunks({c});
       },
       C::RESOURCE_EXHAUSTED, "larger than max"},
      {"sample count 0",
       [&] {
         v1::SampleRequest r;
         v1::SampleResponse o;
         return store_->SamplePuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "count must be 1..1000"},
      {"sample count too big",
       [&] {
         v1::SampleRequest r;
         r.set_count(5000);
         v1::SampleResponse o;
         return store_->SamplePuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "count must be 1..1000"},
      {"score range upside down",
       [&] {
         v1::SampleRequest r;
         r.set_count(1);
         r.mutable_filter()->set_has_score_range(true);
         r.mutable_filter()->set_min_score(0.8);
         r.mutable_filter()->set_max_score(0.2);
         v1::SampleResponse o;
         return store_->SamplePuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "min_score <= max_score"},
      {"score range above 1",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_has_score_range(true);
         r.mutable_filter()->set_max_score(3);
         v1::QueryResponse o;
         return store_->QueryPuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "max_score <= 1"},
      {"observed without range",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_use_observed(true);
         v1::QueryResponse o;
         return store_->QueryPuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "use_observed applies to a score range"},
      {"query of an unknown family",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_family("chess");
         v1::QueryResponse o;
         return store_->QueryPuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "unknown family 'chess' (known: "},
      {"sample of an unknown family",
       [&] {
         v1::SampleRequest r;
         r.set_count(1);
         r.mutable_filter()->set_family("sudoko");
         v1::SampleResponse o;
         return store_->SamplePuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "unknown family 'sudoko'"},
      {"export of an unknown family",
       [&] {
         v1::ExportRequest r;
         r.mutable_filter()->set_family("chess");
         auto ctx = Ctx();
         auto reader = store_->ExportPuzzles(ctx.get(), r);
         v1::Puzzle p;
         while (reader->Read(&p)) {
         }
         return reader->Finish();
       },
       C::INVALID_ARGUMENT, "unknown family 'chess'"},
      {"created range upside down",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_created_after_unix_ms(2000);
         r.mutable_filter()->set_created_before_unix_ms(1000);
         v1::QueryResponse o;
         return store_->QueryPuzzles(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "later than created_before"},
      {"play of unknown puzzle",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id("sn-0123456789abcdef0123456789abcdef");
         v1::RecordPlayResponse o;
         return store_->RecordPlay(Ctx().get(), r, &o);
       },
       C::NOT_FOUND, "no puzzle with id"},
      {"play with malformed id",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id("?");
         v1::RecordPlayResponse o;
         return store_->RecordPlay(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"play of negative time",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id(some_id);
         r.set_seconds(-1);
         v1::RecordPlayResponse o;
         return store_->RecordPlay(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "seconds must be 0..86400"},
      {"play of NaN time",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id(some_id);
         r.set_seconds(std::nan(""));
         v1::RecordPlayResponse o;
         return store_->RecordPlay(Ctx().get(), r, &o);
       },
       C::INVALID_ARGUMENT, "seconds must be 0..86400"},
      {"too many chunks",
       [&] {
         std::vector<v1::ResultChunk> v(1200, Chunk(job, false, 0));
         v.back() = Chunk(job, true, size);
         return SubmitChunks(v);
       },
       C::INVALID_ARGUMENT, "more chunks than any job"},
  };
  ASSERT_GE(cases.size(), 30u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << "message: " << s.error_message();
  }

  // The lease survived the abuse, and the stored puzzles did not change.
  v1::HeartbeatRequest hb;
  hb.set_lease_id(job.lease_id());
  v1::HeartbeatResponse alive;
  EXPECT_TRUE(workers_->Heartbeat(Ctx().get(), hb, &alive).ok());
  EXPECT_TRUE(alive.keep_going());
  const std::string after =
      RunCommand({Bin("foundry"), "export", "--coordinator", cluster_->address()}).out;
  EXPECT_EQ(after, before);
}

// Copies of the store, damaged on disk, refused at start with a clear error;
// the damaged copy is left as it was and the original still opens.
// What a client needs to build a campaign form: each family's own params and
// the goal keys every family takes, which SubmitCampaign then accepts for
// every family (the spec's level field and the same key in params).
// Peak resident memory of a process, in MB (VmHWM), or -1.
double PeakRssMb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  }
  return -1;
}

TEST_F(BadInputTest, AnImportOfHugeMessagesIsHandledAFewMegabytesAtATime) {
  const double before = PeakRssMb(cluster_->coordinator().pid());
  ASSERT_GT(before, 0);
  auto ctx = Ctx();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  v1::ImportResponse resp;
  auto writer = store_->ImportPuzzles(ctx.get(), &resp);
  // 30 messages of 15 MB each: all were buffered before any was looked at
  // (the coordinator went from 157 to 682 MB).
  v1::ImportRequest req;
  req.mutable_puzzle()->set_family("secret-number");
  req.mutable_puzzle()->set_puzzle_json("\"" + std::string(15 << 20, 'x') + "\"");
  req.mutable_puzzle()->set_solution_json("{}");
  for (int i = 1; i <= 30; ++i) {
    req.set_line(static_cast<uint64_t>(i));
    ASSERT_TRUE(writer->Write(req)) << "the server ended the import at message " << i;
  }
  writer->WritesDone();
  const grpc::Status s = writer->Finish();
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.stored(), 0u);
  EXPECT_EQ(resp.rejected_size(), 30) << "each bad puzzle is rejected with its line";
  const double growth = PeakRssMb(cluster_->coordinator().pid()) - before;
  EXPECT_LT(growth, 250) << "the import was buffered whole: +" << growth << " MB";
}

TEST_F(BadInputTest, ListFamiliesNamesTheGoalKeysAndEveryFamilyAcceptsThem) {
  v1::ListFamiliesResponse families;
  ASSERT_TRUE(campaigns_->ListFamilies(Ctx().get(), v1::ListFamiliesRequest(), &families).ok());
  ASSERT_EQ(static_cast<size_t>(families.families_size()), puzzles::AllFamilies().size());
  std::vector<std::string> keys;
  for (const auto& g : families.goal_params()) keys.push_back(g.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"level", "min_score", "max_score"}));
  EXPECT_EQ(families.goal_params(0).allowed(), "any|easy|medium|hard|expert");
  for (const auto& f : families.families()) {
    for (const auto& p : f.params()) EXPECT_NE(p.key(), "level") << f.name();
    EXPECT_TRUE(SubmitGoal(f.name(), "expert", {}, {}).ok()) << f.name();
    EXPECT_TRUE(Submit(f.name(), 10, {{"level", "hard"}, {"min_score", "0.5"}}).ok()) << f.name();
  }
}

TEST_F(BadInputTest, ForeignCorruptOrNewerStoresAreRefusedAndLeftAlone) {
  ASSERT_TRUE(cluster_->StopAll());
  namespace fs = std::filesystem;
  auto copy = [&](const std::string& name) {
    const std::string to = dir_.path() + "/" + name;
    fs::copy(db(), to, fs::copy_options::recursive);
    return to;
  };
  auto start = [&](const std::string& store) {
    return RunCommand({Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db", store},
                      std::chrono::seconds(30));
  };

  // Another schema version: written with RocksDB directly.
  const std::string newer = copy("newer");
  {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies({}, newer, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    for (const auto& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open({}, newer, cfs, &handles, &raw).ok());
    ASSERT_TRUE(raw->Put({}, "schema_version", "99").ok());
    for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
    delete raw;
  }
  auto r = start(newer);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE((r.out + r.err).find("schema version 99"), std::string::npos) << r.out << r.err;

  // A corrupt store: the MANIFEST that CURRENT names is garbage.
  const std::string corrupt = copy("corrupt");
  std::string manifest;
  for (const auto& e : fs::directory_iterator(corrupt)) {
    if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) manifest = e.path();
  }
  ASSERT_FALSE(manifest.empty());
  { std::ofstream(manifest, std::ios::trunc) << "this is not a manifest"; }
  r = start(corrupt);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE((r.out + r.err).find("data loss"), std::string::npos) << r.out << r.err;

  // A directory of someone else's files.
  const std::string foreign = dir_.path() + "/foreign";
  fs::create_directories(foreign);
  { std::ofstream(foreign + "/notes.txt") << "my notes"; }
  r = start(foreign);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(fs::exists(foreign + "/notes.txt"));
  EXPECT_EQ(std::distance(fs::directory_iterator(foreign), fs::directory_iterator{}), 1)
      << "nothing may be created in a foreign directory";

  // The original is intact and still verifies.
  auto verified = RunCommand({Bin("foundry"), "verify", "--db", db()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("300 ok"), std::string::npos) << verified.out;
}

}  // namespace
}  // namespace foundry::testing
