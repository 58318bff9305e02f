// A lease the commit waits on, heartbeated but held far longer than the
// campaign's other jobs (a hung worker, or one that lies that it works), is
// taken back and its job done by another worker.
#include <optional>
#include <thread>
#include <vector>

#include <prometheus/registry.h>

#include "coordinator/coordinator_metrics.h"
#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator::testing {
namespace {

using std::chrono::milliseconds;

// The counter `name` as `registry` holds it now; -1 when it has no value.
double CounterValue(prometheus::Registry& registry, const std::string& name) {
  for (const auto& family : registry.Collect()) {
    if (family.name == name && !family.metric.empty()) return family.metric.front().counter.value;
  }
  return -1;
}

foundry::v1::HeartbeatRequest Beat(const std::string& worker, const std::string& lease_id) {
  foundry::v1::HeartbeatRequest hb;
  hb.set_worker_id(worker);
  hb.set_lease_id(lease_id);
  return hb;
}

class StaleLeaseTest : public CoordinatorTest {
 protected:
  void SetUp() override {
    CoordinatorTest::SetUp();
    CoordinatorOptions opts;
    opts.lease_ttl = milliseconds(100);  // taken back after 4 TTLs: 400 ms
    Reopen(opts, &metrics_);
  }

  // One Lease as `worker`, its job done (generated or checked) and handed in.
  std::optional<foundry::v1::Job> Serve(const std::string& worker) {
    auto r = core_->Lease(Request(worker));
    EXPECT_TRUE(r.ok());
    if (!r.ok() || !r->has_job()) return std::nullopt;
    const bool check = r->job().kind() != foundry::v1::JOB_KIND_GENERATE;
    EXPECT_TRUE(core_->SubmitResults(check ? RunCheck(r->job()) : Run(r->job())).ok());
    return r->job();
  }

  // `workers` serve in turn until the campaign leaves RUNNING.
  Campaign DriveBy(const std::string& id, const std::vector<std::string>& workers) {
    for (int i = 0; i < 10000; ++i) {
      auto c = core_->GetCampaign(id);
      if (c->state() != foundry::v1::CAMPAIGN_STATE_RUNNING) return *c;
      for (const auto& w : workers) Serve(w);
    }
    ADD_FAILURE() << "campaign did not finish";
    return {};
  }

  // Outlive the coordinator: TearDown closes it before members go.
  prometheus::Registry registry_;
  CoordinatorMetrics metrics_{registry_};

  // Heartbeats `lease_id` as `worker` every 30 ms until the coordinator says
  // stop or `limit` passes; how long it kept going.
  milliseconds KeepAlive(const std::string& worker, const std::string& lease_id,
                         milliseconds limit) {
    const auto start = Clock::now();
    while (Clock::now() - start < limit) {
      auto hb = core_->Heartbeat(Beat(worker, lease_id));
      if (!hb.ok() || !hb->keep_going()) break;
      std::this_thread::sleep_for(milliseconds(30));
    }
    return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
  }
};

TEST_F(StaleLeaseTest, AGenerationJobHeldWhileTheCommitWaitsGoesToAnotherWorker) {
  auto c = core_->SubmitCampaign(Spec(600, 5, 60));  // 10 jobs
  auto stalled = core_->Lease(Request("staller"));
  ASSERT_TRUE(stalled.ok() && stalled->has_job());
  ASSERT_EQ(stalled->job().first_index(), 0u);
  // Another worker does three jobs: the campaign learns how long one takes.
  for (int i = 0; i < 3; ++i) {
    auto job = core_->Lease(Request("w"));
    ASSERT_TRUE(job.ok() && job->has_job());
    ASSERT_TRUE(core_->SubmitResults(Run(job->job())).ok());
  }
  EXPECT_EQ(core_->GetCampaign(c->id())->counters().stored(), 0u) << "the commit waits on job 0";

  // Heartbeats do not save it: the ticker takes it back after ~400 ms.
  const milliseconds kept = KeepAlive("staller", stalled->job().lease_id(), milliseconds(5000));
  EXPECT_LT(kept, milliseconds(3000));
  EXPECT_GE(kept, milliseconds(350));
  EXPECT_EQ(CounterValue(registry_, "foundry_leases_taken_back_total"), 1.0);
  EXPECT_EQ(CounterValue(registry_, "foundry_lease_expirations_total"), 0.0)
      << "a take-back is not a silent worker";

  // Not to the staller again while another worker is alive...
  auto again = core_->Lease(Request("staller"));
  ASSERT_TRUE(again.ok());
  if (again->has_job()) {
    EXPECT_NE(again->job().first_index(), 0u);
  }
  // ...but to the other one, and the campaign ends as an undisturbed run.
  auto taken = core_->Lease(Request("w"));
  ASSERT_TRUE(taken.ok() && taken->has_job());
  EXPECT_EQ(taken->job().first_index(), 0u);
  ASSERT_TRUE(core_->SubmitResults(Run(taken->job())).ok());
  if (again->has_job()) {
    const bool check = again->job().kind() != foundry::v1::JOB_KIND_GENERATE;
    ASSERT_TRUE(core_->SubmitResults(check ? RunCheck(again->job()) : Run(again->job())).ok());
  }
  const Campaign done = DriveBy(c->id(), {"w", "staller"});
  EXPECT_EQ(done.counters().stored(), 600u);
  // The staller's late result is harmless.
  auto late = core_->SubmitResults(Run(stalled->job()));
  ASSERT_TRUE(late.ok());
  EXPECT_FALSE(late->accepted());
  ExpectAFreshStoreGets(Spec(600, 5, 60), StoredIds());
}

TEST_F(StaleLeaseTest, NothingIsTakenBackBeforeTheCampaignKnowsWhatLongIs) {
  // No job done yet: however long the first lease lasts, it is slow work,
  // not a stall (a heavy family's first jobs may all take minutes).
  auto c = core_->SubmitCampaign(Spec(600, 5, 60));
  auto first = core_->Lease(Request("slow"));
  ASSERT_TRUE(first.ok() && first->has_job());
  EXPECT_GE(KeepAlive("slow", first->job().lease_id(), milliseconds(1000)), milliseconds(1000));
  EXPECT_EQ(CounterValue(registry_, "foundry_leases_taken_back_total"), 0.0);
  ASSERT_TRUE(core_->SubmitResults(Run(first->job())).ok());
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 60u) << "its job was committed";
}

TEST_F(StaleLeaseTest, AVerificationHeldWhileTheCommitWaitsIsDoneByTheCoordinator) {
  auto c = core_->SubmitCampaign(Spec(6000, 5, 60));
  // Two workers take turns: "w" checks the job "checker" generated before,
  // "checker" generates the next, so the campaign learns how long a check
  // takes, and the job at the commit cursor always waits for its check.
  for (int i = 0; i < 40 && core_->GetCampaign(c->id())->next_index() < 300; ++i) {
    Serve("w");
    Serve("checker");
  }
  const uint64_t cursor = core_->GetCampaign(c->id())->next_index();
  ASSERT_GE(cursor, 300u);
  // The staller takes that check and heartbeats it without end.
  auto check = core_->Lease(Request("staller"));
  ASSERT_TRUE(check.ok() && check->has_job());
  ASSERT_NE(check->job().kind(), foundry::v1::JOB_KIND_GENERATE);
  ASSERT_EQ(check->job().first_index(), cursor);
  const milliseconds kept = KeepAlive("staller", check->job().lease_id(), milliseconds(5000));
  EXPECT_LT(kept, milliseconds(3000));
  // The coordinator checks it itself (another worker might stall as well),
  // and the commit goes on without any worker's help.
  const auto start = Clock::now();
  while (core_->GetCampaign(c->id())->next_index() == cursor &&
         Clock::now() - start < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_GT(core_->GetCampaign(c->id())->next_index(), cursor);
  // Its answers, late, are not used.
  auto late = core_->SubmitResults(RunCheck(check->job()));
  ASSERT_TRUE(late.ok());
  EXPECT_FALSE(late->accepted());
  const Campaign done = DriveBy(c->id(), {"w", "checker", "staller"});
  EXPECT_EQ(done.counters().stored(), 6000u);
}

}  // namespace
}  // namespace foundry::coordinator::testing
