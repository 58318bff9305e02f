// Who is offered what: checks before generation unless another worker needs
// something to check, checks left to a fleet that is only behind, and which
// lapses count. The coordinator core on a real store, no network.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include "coordinator/coordinator_metrics.h"
#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator {
namespace {

using testing::CoordinatorTest;

// foundry_lease_expirations_total as `registry` holds it now.
double LeaseExpirations(prometheus::Registry& registry) {
  for (const auto& family : registry.Collect()) {
    if (family.name == "foundry_lease_expirations_total" && !family.metric.empty()) {
      return family.metric.front().counter.value;
    }
  }
  return -1;
}

TEST_F(CoordinatorTest, OnlyLapsesThatLoseWantedWorkAreCounted) {
  prometheus::Registry registry;
  CoordinatorMetrics metrics(registry);
  CoordinatorOptions opts;
  opts.lease_ttl = std::chrono::milliseconds(50);
  Reopen(opts, &metrics);
  auto c = core_->SubmitCampaign(Spec(100000, 5, 60));
  // A worker goes silent: its job lapses and is leased again. That counts.
  const auto silent = LeaseJob();
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  const auto retry = LeaseJob();
  EXPECT_EQ(retry.first_index(), silent.first_index());
  EXPECT_EQ(LeaseExpirations(registry), 1.0);

  // The campaign ends with a job still leased: the worker is told to stop,
  // nothing is re-queued, and its lease running out is no lapse.
  ASSERT_TRUE(core_->CancelCampaign(c->id()).ok());
  foundry::v1::HeartbeatRequest hb;
  hb.set_lease_id(retry.lease_id());
  EXPECT_FALSE(core_->Heartbeat(hb)->keep_going());
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_FALSE(core_->Lease(Request())->has_job());  // a tick, as every Lease makes
  EXPECT_EQ(LeaseExpirations(registry), 1.0);
  core_.reset();  // before `metrics`
}

TEST_F(CoordinatorTest, AWorkerWithTwoFewerJobsInFlightGeneratesSoThatTheOtherHasSomethingToCheck) {
  auto c = core_->SubmitCampaign(Spec(100000, 5, 50));
  // b, known alive, generates one job; a generates three, which only b may
  // check.
  const auto b0 = core_->Lease(Request("b"))->job();
  ASSERT_EQ(b0.kind(), foundry::v1::JOB_KIND_GENERATE);
  for (int i = 0; i < 3; ++i) {
    const auto job = core_->Lease(Request("a"))->job();
    ASSERT_EQ(job.kind(), foundry::v1::JOB_KIND_GENERATE) << i;
    ASSERT_TRUE(core_->SubmitResults(Run(job))->accepted());
  }
  // b (1 in flight) has two fewer than a (3 waiting): it generates rather
  // than checks, so that a, which may not check its own, gets something to
  // check.
  EXPECT_EQ(core_->Lease(Request("b"))->job().kind(), foundry::v1::JOB_KIND_GENERATE);
  // Now 2 against 3: checks first again.
  const auto check = core_->Lease(Request("b"))->job();
  EXPECT_EQ(check.kind(), foundry::v1::JOB_KIND_VERIFY);
  // a, with more in flight than b, checks b's job as soon as there is one.
  ASSERT_TRUE(core_->SubmitResults(Run(b0))->accepted());
  const auto for_a = core_->Lease(Request("a"))->job();
  EXPECT_EQ(for_a.kind(), foundry::v1::JOB_KIND_VERIFY);
  EXPECT_EQ(for_a.first_index(), b0.first_index());
}

TEST_F(CoordinatorTest, TheJobTheCommitsWaitOnIsCheckedFirstWhateverTheBalanceRuleSays) {
  auto c = core_->SubmitCampaign(Spec(100000, 5, 50));
  // b generates job 0 and a job 1, each known to the other; a checks job 0,
  // which is then committed.
  const auto b0 = core_->Lease(Request("b"))->job();
  const auto a1 = core_->Lease(Request("a"))->job();
  ASSERT_EQ(b0.kind(), foundry::v1::JOB_KIND_GENERATE);
  ASSERT_EQ(a1.kind(), foundry::v1::JOB_KIND_GENERATE);
  ASSERT_TRUE(core_->SubmitResults(Run(b0))->accepted());
  ASSERT_TRUE(core_->SubmitResults(Run(a1))->accepted());
  const auto a_checks = core_->Lease(Request("a"))->job();
  ASSERT_EQ(a_checks.kind(), foundry::v1::JOB_KIND_VERIFY);
  ASSERT_EQ(a_checks.first_index(), b0.first_index());
  ASSERT_TRUE(core_->SubmitResults(RunCheck(a_checks))->accepted());
  ASSERT_EQ(core_->GetCampaign(c->id())->next_index(), b0.end_index());
  // a generates jobs 2 and 3 as well: three of a's wait, which only b may
  // check.
  std::vector<foundry::v1::Job> jobs = {a1};
  for (int i = 0; i < 2; ++i) {
    const auto job = core_->Lease(Request("a"))->job();
    ASSERT_EQ(job.kind(), foundry::v1::JOB_KIND_GENERATE) << i;
    ASSERT_TRUE(core_->SubmitResults(Run(job))->accepted());
    jobs.push_back(job);
  }
  // b has nothing in flight against a's three waiting, so the balance rule
  // alone would have it generate; but no job commits before job 1 is
  // checked, so b checks job 1, then job 2 (a's two left still outnumber
  // b's none by two), and each check's commit follows it.
  for (size_t i = 0; i < 2; ++i) {
    const auto check = core_->Lease(Request("b"))->job();
    ASSERT_EQ(check.kind(), foundry::v1::JOB_KIND_VERIFY) << i;
    EXPECT_EQ(check.first_index(), jobs[i].first_index());
    ASSERT_TRUE(core_->SubmitResults(RunCheck(check))->accepted());
    EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), jobs[i].end_index());
  }
}

TEST_F(CoordinatorTest, ChecksStayWithAFleetThatIsBehindAndComeHereWhenItStops) {
  CoordinatorOptions opts;
  opts.verify_wait = std::chrono::milliseconds(300);
  Reopen(opts);
  auto c = core_->SubmitCampaign(Spec(100000, 5, 50));
  // b generates jobs 0 to 2 (and is thereby known to be alive); a generates
  // jobs 3 to 5, which only b may check.
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(core_->Lease(Request("b"))->job().kind(), foundry::v1::JOB_KIND_GENERATE);
  }
  for (int i = 0; i < 3; ++i) {
    const auto job = core_->Lease(Request("a"))->job();
    ASSERT_EQ(job.kind(), foundry::v1::JOB_KIND_GENERATE);
    ASSERT_TRUE(core_->SubmitResults(Run(job))->accepted());
  }
  const auto checking = core_->Lease(Request("b"))->job();
  ASSERT_EQ(checking.kind(), foundry::v1::JOB_KIND_VERIFY);
  EXPECT_EQ(checking.first_index(), 150u);

  // b keeps checking (heartbeats) well past verify_wait: jobs 4 and 5 wait
  // for it instead of being checked here.
  foundry::v1::HeartbeatRequest hb;
  hb.set_worker_id("b");
  hb.set_lease_id(checking.lease_id());
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(core_->Heartbeat(hb)->keep_going());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto next = core_->Lease(Request("b"))->job();
  EXPECT_EQ(next.kind(), foundry::v1::JOB_KIND_VERIFY);
  EXPECT_EQ(next.first_index(), 200u);

  // b stops checking: after verify_wait the coordinator checks job 5 itself.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const auto after = core_->Lease(Request("b"))->job();
  EXPECT_EQ(after.kind(), foundry::v1::JOB_KIND_GENERATE);
}

TEST_F(CoordinatorTest, WithTwoWorkersEachJobIsVerifiedByTheOther) {
  auto c = core_->SubmitCampaign(Spec(200, 5, 50));
  // Both workers are known before the first submission.
  auto a = core_->Lease(Request("a"));
  auto b = core_->Lease(Request("b"));
  ASSERT_TRUE(a->has_job() && b->has_job());
  ASSERT_TRUE(core_->SubmitResults(Run(a->job())).ok());
  // a's job now waits for verification, which only b may take.
  auto for_b = core_->Lease(Request("b"));
  ASSERT_TRUE(for_b->has_job());
  ASSERT_EQ(for_b->job().kind(), foundry::v1::JOB_KIND_VERIFY);
  auto for_a = core_->Lease(Request("a"));
  ASSERT_TRUE(for_a->has_job());
  EXPECT_EQ(for_a->job().kind(), foundry::v1::JOB_KIND_GENERATE);
  EXPECT_EQ(for_b->job().first_index(), a->job().first_index());
  // On probation every index is re-generated; the claims are withheld.
  EXPECT_TRUE(for_b->job().regenerate_all());
  for (const auto& p : for_b->job().puzzles()) EXPECT_TRUE(p.id().empty());
  EXPECT_TRUE(StoredIds().empty());
}

}  // namespace
}  // namespace foundry::coordinator
