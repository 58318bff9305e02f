// The coordinator core with a real store and the real job executor, no
// network: exact counts, ordered commits, lapsed leases, restarts, cancels
// and refused submissions.
#include "coordinator/coordinator.h"
#include "puzzles/fingerprint.h"

#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "puzzles/registry.h"
#include "tests/unit/coordinator/coordinator_fixture.h"
#include "worker/job_executor.h"
#include "worker/result_chunks.h"

namespace foundry::coordinator {
namespace {

using foundry::v1::Campaign;
using testing::CoordinatorTest;

TEST_F(CoordinatorTest, CampaignStoresExactlyCountNewPuzzles) {
  auto c = core_->SubmitCampaign(Spec(777));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const Campaign done = Drive(c->id());
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_DONE);
  EXPECT_EQ(done.counters().stored(), 777u);
  EXPECT_EQ(StoredIds().size(), 777u);
  EXPECT_DOUBLE_EQ(done.progress(), 1.0);
  EXPECT_EQ(done.counters().accepted() + done.counters().rejected(), done.counters().candidates());
}

TEST_F(CoordinatorTest, SecondCampaignWithSameSeedStoresOnlyNewPuzzles) {
  auto a = core_->SubmitCampaign(Spec(300));
  Drive(a->id());
  auto b = core_->SubmitCampaign(Spec(300));
  const Campaign done = Drive(b->id());
  EXPECT_EQ(done.counters().stored(), 300u);
  EXPECT_GE(done.counters().duplicates(), 300u) << "the first 300 are already stored";
  EXPECT_EQ(StoredIds().size(), 600u);
}

TEST_F(CoordinatorTest, OutOfOrderSubmissionsCommitInOrder) {
  auto c = core_->SubmitCampaign(Spec(120, 9, 40));
  std::vector<foundry::v1::Job> jobs;
  for (int i = 0; i < 3; ++i) jobs.push_back(LeaseJob());
  // Submit the last job first: nothing can commit until job 0 arrives.
  ASSERT_TRUE(core_->SubmitResults(Run(jobs[2])).ok());
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 0u);
  ASSERT_TRUE(core_->SubmitResults(Run(jobs[1])).ok());
  ASSERT_TRUE(core_->SubmitResults(Run(jobs[0])).ok());
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 120u);
  Drive(c->id());
  const auto ids = StoredIds();

  // The same campaign on a fresh store, in order, stores the same puzzles.
  TearDown();
  SetUp();
  auto again = core_->SubmitCampaign(Spec(120, 9, 40));
  Drive(again->id());
  EXPECT_EQ(StoredIds(), ids);
}

TEST_F(CoordinatorTest, LapsedLeaseIsLeasedAgainAndLateSubmissionIsHarmless) {
  CoordinatorOptions opts;
  opts.lease_ttl = std::chrono::milliseconds(50);
  Reopen(opts);
  auto c = core_->SubmitCampaign(Spec(200, 5, 60));
  const auto first = LeaseJob();
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  // The lapsed job is offered again, before any new one.
  const auto retry = LeaseJob();
  EXPECT_EQ(retry.first_index(), first.first_index());
  EXPECT_NE(retry.lease_id(), first.lease_id());
  foundry::v1::HeartbeatRequest hb;
  hb.set_lease_id(first.lease_id());
  EXPECT_FALSE(core_->Heartbeat(hb)->keep_going());

  ASSERT_TRUE(core_->SubmitResults(Run(retry)).ok());
  auto late = core_->SubmitResults(Run(first));
  ASSERT_TRUE(late.ok());
  EXPECT_FALSE(late->accepted());
  const Campaign done = Drive(c->id());
  EXPECT_EQ(done.counters().stored(), 200u);
  EXPECT_EQ(StoredIds().size(), 200u);
}

TEST_F(CoordinatorTest, RestartResumesFromTheCommittedCursorWithTheSameResult) {
  auto c = core_->SubmitCampaign(Spec(400, 21, 50));
  const std::string id = c->id();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(core_->SubmitResults(Run(LeaseJob())).ok());
  const auto leased_not_submitted = LeaseJob();  // lost in the "crash"
  const uint64_t cursor = core_->GetCampaign(id)->next_index();
  EXPECT_EQ(cursor, 150u);

  Reopen();
  auto resumed = core_->GetCampaign(id);
  ASSERT_TRUE(resumed.ok());
  EXPECT_EQ(resumed->state(), foundry::v1::CAMPAIGN_STATE_RUNNING);
  EXPECT_EQ(resumed->next_index(), cursor);
  foundry::v1::HeartbeatRequest hb;
  hb.set_lease_id(leased_not_submitted.lease_id());
  EXPECT_EQ(core_->Heartbeat(hb).status().code(), Status::Code::kNotFound);
  const Campaign done = Drive(id);
  EXPECT_EQ(done.counters().stored(), 400u);
  ExpectAFreshStoreGets(Spec(400, 21, 50), StoredIds());
}

TEST_F(CoordinatorTest, CancelStopsLeasingAndKeepsWhatWasStored) {
  auto c = core_->SubmitCampaign(Spec(100000, 1, 100));
  ASSERT_TRUE(core_->SubmitResults(Run(LeaseJob())).ok());
  const auto pending = LeaseJob();
  auto cancelled = core_->CancelCampaign(c->id());
  ASSERT_TRUE(cancelled.ok());
  EXPECT_EQ(cancelled->state(), foundry::v1::CAMPAIGN_STATE_CANCELLED);
  const uint64_t stored = cancelled->counters().stored();
  EXPECT_GT(stored, 0u);
  const foundry::v1::LeaseRequest req = Request();
  EXPECT_FALSE(core_->Lease(req)->has_job());
  foundry::v1::HeartbeatRequest hb;
  hb.set_lease_id(pending.lease_id());
  EXPECT_FALSE(core_->Heartbeat(hb)->keep_going());
  EXPECT_FALSE(core_->SubmitResults(Run(pending))->accepted());
  EXPECT_EQ(StoredIds(c->id()).size(), stored);
  Reopen();
  EXPECT_EQ(core_->GetCampaign(c->id())->state(), foundry::v1::CAMPAIGN_STATE_CANCELLED);
}

TEST_F(CoordinatorTest, FewDistinctPuzzlesEndsExhaustedWithAMessage) {
  CoordinatorOptions opts;
  opts.stall_candidates = 5000;
  Reopen(opts);
  auto c = core_->SubmitCampaign(TinySpaceSpec(1000000));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const Campaign done = Drive(c->id());
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_EXHAUSTED);
  EXPECT_NE(done.message().find("gave nothing new"), std::string::npos) << done.message();
  EXPECT_LT(done.counters().stored(), 1000000u);
  EXPECT_EQ(StoredIds().size(), done.counters().stored());
}

TEST_F(CoordinatorTest, LeasesAreSharedInProportionToPriority) {
  auto low = Spec(100000, 1, 50);
  auto high = Spec(100000, 2, 50);
  high.set_priority(3);
  const std::string a = core_->SubmitCampaign(low)->id();
  const std::string b = core_->SubmitCampaign(high)->id();
  std::map<std::string, int> leases;
  for (int i = 0; i < 20; ++i) ++leases[LeaseJob().campaign_id()];
  EXPECT_EQ(leases[a], 5);
  EXPECT_EQ(leases[b], 15);

  // A newcomer starts level with the others: neither starved by their
  // history nor given a burst to catch up. Weights 1, 3, 1 share 10 leases
  // 2, 6, 2.
  const std::string c = core_->SubmitCampaign(Spec(100000, 3, 50))->id();
  leases.clear();
  for (int i = 0; i < 10; ++i) ++leases[LeaseJob().campaign_id()];
  EXPECT_EQ(leases[a], 2);
  EXPECT_EQ(leases[b], 6);
  EXPECT_EQ(leases[c], 2);
}

TEST_F(CoordinatorTest, UsedUpPuzzleSpaceEndsExhaustedAfterAStretchOfDuplicates) {
  CoordinatorOptions opts;
  opts.stall_duplicates = 300;  // the candidate limit stays far away
  Reopen(opts);
  auto c = core_->SubmitCampaign(TinySpaceSpec(1000000));
  const Campaign done = Drive(c->id());
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_EXHAUSTED);
  EXPECT_NE(done.message().find("were all already in the store"), std::string::npos);
  EXPECT_LT(done.counters().candidates(), 2'000'000u);
}

TEST_F(CoordinatorTest, BadCampaignsAreRefusedWithTheFieldNamed) {
  auto spec = Spec(10);
  spec.set_family("sudokuu");
  EXPECT_NE(core_->SubmitCampaign(spec).status().message().find("unknown family 'sudokuu'"),
            std::string::npos);
  spec = Spec(0);
  EXPECT_EQ(core_->SubmitCampaign(spec).status().code(), Status::Code::kInvalidArgument);
  spec = Spec(200'000'000);
  EXPECT_NE(core_->SubmitCampaign(spec).status().message().find("count must be"),
            std::string::npos);
  spec = Spec(10);
  (*spec.mutable_params())["digits"] = "1";
  EXPECT_NE(core_->SubmitCampaign(spec).status().message().find("'digits'"), std::string::npos);
  for (int32_t priority : {-1, 1'000'001, INT32_MAX}) {
    spec = Spec(10);
    spec.set_priority(priority);
    EXPECT_NE(core_->SubmitCampaign(spec).status().message().find(
                  "priority must be 0..1000000, got " + std::to_string(priority)),
              std::string::npos);
  }
  EXPECT_TRUE(core_->ListCampaigns(false).empty());
  spec = Spec(10);
  spec.set_priority(1'000'000);
  EXPECT_TRUE(core_->SubmitCampaign(spec).ok()) << "the range's ends are allowed";
}

TEST_F(CoordinatorTest, BadSubmissionsAreRefusedStoreNothingAndQuarantineTheSender) {
  auto c = core_->SubmitCampaign(Spec(100, 4, 50));
  const auto job = LeaseJob();
  auto chunks = Run(job);

  auto unknown = chunks;
  for (auto& ch : unknown) ch.set_lease_id("l-nope");
  EXPECT_EQ(core_->SubmitResults(unknown).status().code(), Status::Code::kNotFound);
  auto no_last = chunks;
  no_last.back().set_last(false);
  EXPECT_EQ(core_->SubmitResults(no_last).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(core_->SubmitResults({}).status().code(), Status::Code::kInvalidArgument);

  // A submission that disagrees with its job: refused, and its sender is
  // quarantined (an honest worker never sends one).
  auto out_of_range = chunks;
  out_of_range.front().mutable_puzzles(0)->set_index(job.end_index() + 5);
  EXPECT_EQ(core_->SubmitResults(out_of_range).status().code(), Status::Code::kInvalidArgument);
  auto again = core_->Lease(Request());
  ASSERT_EQ(again.status().code(), Status::Code::kPermissionDenied);
  EXPECT_NE(again.status().message().find("outside the job's range"), std::string::npos);
  EXPECT_TRUE(StoredIds().empty());

  // Another worker finishes the campaign with the ids of an undisturbed run.
  const Campaign done = Drive(c->id(), "v");
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_DONE);
  const auto ids = StoredIds();
  core_.reset();
  store_.reset();
  std::filesystem::remove_all(dir_);
  Reopen();
  auto reference = core_->SubmitCampaign(Spec(100, 4, 50));
  Drive(reference->id());
  EXPECT_EQ(StoredIds(), ids);
}

TEST_F(CoordinatorTest, ATamperedAnswerIsCaughtAndTheJobRunAgainElsewhere) {
  auto c = core_->SubmitCampaign(Spec(100, 4, 50));
  const auto job = LeaseJob();
  auto tampered = Run(job);
  auto* p = tampered.front().mutable_puzzles(0);
  auto solution = nlohmann::json::parse(p->solution_json());
  solution["number"] = solution["number"].get<int>() == 100 ? 101 : 100;
  p->set_solution_json(solution.dump());
  // Alone, the worker's job is verified by the coordinator itself, which
  // re-generates the disputed index and finds the lie.
  ASSERT_TRUE(core_->SubmitResults(tampered).ok());
  EXPECT_EQ(core_->Lease(Request()).status().code(), Status::Code::kPermissionDenied);
  auto workers = core_->ListWorkers();
  ASSERT_EQ(workers.workers_size(), 1);
  EXPECT_EQ(workers.workers(0).state(), foundry::v1::WORKER_STATE_QUARANTINED);
  EXPECT_NE(workers.workers(0).evidence().find("the stream holds"), std::string::npos);
  EXPECT_TRUE(StoredIds().empty());

  const Campaign done = Drive(c->id(), "v");
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_DONE);
  EXPECT_EQ(done.counters().invalid(), 0u);
  EXPECT_EQ(StoredIds().size(), 100u);
}

// A worker that ignores the campaign's level sends genuine, correctly graded
// puzzles that the stream would have rejected: the coordinator disputes them
// (the goal is checked on every claim, not only on sampled ones), finds the
// lie by re-generating, and stores only puzzles of the level asked for.
TEST_F(CoordinatorTest, AWorkerIgnoringTheLevelIsCaughtAndOnlyThatLevelIsStored) {
  // No probation and no re-generation: only the goal check on the claims can
  // see that these genuine, correctly graded puzzles are not the stream's.
  CoordinatorOptions options;
  options.trust.probation_jobs = 0;
  options.trust.spot_checks = false;
  Reopen(options);
  auto spec = Spec(60, 5, 50);
  spec.set_level("easy");
  auto c = core_->SubmitCampaign(spec);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto job = LeaseJob();
  ASSERT_EQ(nlohmann::json::parse(job.params_json()).at("level"), "easy");
  auto unaimed = job;
  auto params = nlohmann::json::parse(job.params_json());
  params.erase("level");
  unaimed.set_params_json(params.dump());
  ASSERT_TRUE(core_->SubmitResults(Run(unaimed)).ok());
  auto workers = core_->ListWorkers();
  ASSERT_EQ(workers.workers_size(), 1);
  EXPECT_EQ(workers.workers(0).state(), foundry::v1::WORKER_STATE_QUARANTINED);
  EXPECT_TRUE(StoredIds().empty());

  const Campaign done = Drive(c->id(), "v");
  EXPECT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_DONE);
  storage::PuzzleFilter f;
  size_t stored = 0;
  EXPECT_TRUE(store_
                  ->Scan(f, "", 0,
                         [&](const foundry::v1::Puzzle& p) {
                           EXPECT_EQ(p.difficulty().level(), "easy") << p.id();
                           ++stored;
                           return true;
                         })
                  .ok());
  EXPECT_EQ(stored, 60u);
}

TEST_F(CoordinatorTest, AWorkerOfAnotherGenerationFingerprintIsRefusedNamingBoth) {
  core_->SubmitCampaign(Spec(100));
  auto req = Request();
  req.set_generation_fingerprint("0123456789abcdef");
  req.set_build("9.9.9");
  auto r = core_->Lease(req);
  ASSERT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("0123456789abcdef"), std::string::npos);
  EXPECT_NE(r.status().message().find(puzzles::GenerationFingerprint()), std::string::npos);
  EXPECT_NE(r.status().message().find("9.9.9"), std::string::npos);
}

}  // namespace
}  // namespace foundry::coordinator
