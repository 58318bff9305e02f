// BadInputTest: a real coordinator over gRPC (no workers) on a store with
// puzzles in it, and the calls the bad-input tests make through it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"
#include "foundry/v1/worker.grpc.pb.h"
#include "puzzles/fingerprint.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {

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
    cluster_ = std::make_unique<LocalCluster>(db(), dir_.path(), /*workers=*/0, 1,
                                              /*lease_seconds=*/2.0, CoordinatorArgs());
    ASSERT_TRUE(cluster_->ok());
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(64 << 20);
    auto channel =
        grpc::CreateCustomChannel(cluster_->address(), grpc::InsecureChannelCredentials(), args);
    campaigns_ = v1::CampaignService::NewStub(channel);
    store_ = v1::PuzzleStore::NewStub(channel);
    workers_ = v1::WorkerService::NewStub(channel);
  }

  // Flags of the coordinator beside the fixture's own.
  virtual std::vector<std::string> CoordinatorArgs() const { return {}; }

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
    return QueryPuzzles(req);
  }

  // The store's answer to `req`, its response dropped.
  grpc::Status QueryPuzzles(const v1::QueryRequest& req) {
    v1::QueryResponse resp;
    return store_->QueryPuzzles(Ctx().get(), req, &resp);
  }
  grpc::Status SamplePuzzles(const v1::SampleRequest& req) {
    v1::SampleResponse resp;
    return store_->SamplePuzzles(Ctx().get(), req, &resp);
  }
  grpc::Status RecordPlay(const v1::RecordPlayRequest& req) {
    v1::RecordPlayResponse resp;
    return store_->RecordPlay(Ctx().get(), req, &resp);
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

}  // namespace foundry::testing
