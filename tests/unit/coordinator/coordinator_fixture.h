// CoordinatorTest: a coordinator core on a real store in a fresh directory,
// with the real job executor standing in for workers (no network). Shared by
// the coordinator's unit tests.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "coordinator/coordinator.h"
#include "puzzles/fingerprint.h"
#include "puzzles/registry.h"
#include "storage/store.h"
#include "worker/job_executor.h"
#include "worker/result_chunks.h"

namespace foundry::coordinator::testing {

using foundry::v1::Campaign;

class CoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("coordinator-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    Reopen();
  }
  void TearDown() override {
    core_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  void Reopen(CoordinatorOptions options = {}, CoordinatorMetrics* metrics = nullptr) {
    core_.reset();
    store_.reset();
    auto store = storage::Store::Open(dir_.string(), {});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    auto core = Coordinator::Open(store_.get(), options, metrics);
    ASSERT_TRUE(core.ok()) << core.status().ToString();
    core_ = std::move(*core);
  }

  static foundry::v1::CampaignSpec Spec(uint64_t count, uint64_t seed = 3, uint32_t job_size = 50) {
    foundry::v1::CampaignSpec s;
    s.set_family("secret-number");
    s.set_count(count);
    s.set_seed(seed);
    s.set_job_size(job_size);
    return s;
  }

  static foundry::v1::LeaseRequest Request(const std::string& worker = "w") {
    foundry::v1::LeaseRequest req;
    req.set_worker_id(worker);
    req.set_generation_fingerprint(puzzles::GenerationFingerprint());
    return req;
  }

  foundry::v1::Job LeaseJob() {
    auto r = core_->Lease(Request());
    EXPECT_TRUE(r.ok());
    EXPECT_TRUE(r->has_job());
    return r->job();
  }

  std::vector<foundry::v1::ResultChunk> Run(const foundry::v1::Job& job) {
    const puzzles::Family* family = *puzzles::FindFamily(job.family());
    worker::JobSpec spec{family, *family->MakeParams(nlohmann::json::parse(job.params_json())),
                         job.seed(), job.first_index(), job.end_index()};
    std::atomic<bool> cancel{false};
    return worker::ChunkResults(job.lease_id(), executor_.Run(spec, cancel), 7);
  }

  // A verification job's answers, as a worker's lease loop makes them.
  std::vector<foundry::v1::ResultChunk> RunCheck(const foundry::v1::Job& job) {
    const puzzles::Family* family = *puzzles::FindFamily(job.family());
    worker::VerifySpec spec{family,
                            *family->MakeParams(nlohmann::json::parse(job.params_json())),
                            job.seed(),
                            {job.puzzles().begin(), job.puzzles().end()},
                            {job.regenerate().begin(), job.regenerate().end()}};
    if (job.regenerate_all()) {
      for (uint64_t i = job.first_index(); i < job.end_index(); ++i) spec.regenerate.push_back(i);
    }
    std::atomic<bool> cancel{false};
    return worker::ChunkVerifyResults(job.lease_id(), executor_.RunVerify(spec, cancel), 7);
  }

  // Leases and submits until the campaign leaves RUNNING.
  Campaign Drive(const std::string& id, const std::string& worker = "w") {
    for (int i = 0; i < 100000; ++i) {
      auto c = core_->GetCampaign(id);
      if (c->state() != foundry::v1::CAMPAIGN_STATE_RUNNING) return *c;
      auto r = core_->Lease(Request(worker));
      if (!r->has_job()) continue;
      EXPECT_TRUE(core_->SubmitResults(Run(r->job())).ok());
    }
    ADD_FAILURE() << "campaign did not finish";
    return {};
  }

  std::set<std::string> StoredIds(const std::string& campaign_id = "") {
    std::set<std::string> ids;
    storage::PuzzleFilter f;
    f.campaign_id = campaign_id;
    EXPECT_TRUE(store_
                    ->Scan(f, "", 0,
                           [&](const foundry::v1::Puzzle& p) {
                             ids.insert(p.id());
                             return true;
                           })
                    .ok());
    return ids;
  }

  // Expects `spec`, run to its end in a fresh store, to store exactly `ids`.
  void ExpectAFreshStoreGets(const foundry::v1::CampaignSpec& spec,
                             const std::set<std::string>& ids) {
    TearDown();
    SetUp();
    Drive(core_->SubmitCampaign(spec)->id());
    EXPECT_EQ(StoredIds(), ids);
  }

  // Two-digit secret numbers named by a single rule: a space of only a
  // handful of puzzles, which a campaign of `count` uses up.
  static foundry::v1::CampaignSpec TinySpaceSpec(uint64_t count) {
    foundry::v1::CampaignSpec spec = Spec(count, 1, 500);
    (*spec.mutable_params())["digits"] = "2";
    (*spec.mutable_params())["max_rules"] = "1";
    (*spec.mutable_params())["min_rules"] = "1";
    return spec;
  }

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<Coordinator> core_;
  worker::JobExecutor executor_{2};
};

}  // namespace foundry::coordinator::testing
