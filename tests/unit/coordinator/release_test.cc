// Batch-scheduled workers: leases handed back on SIGTERM are leased again at
// once, and a worker of one campaign gets only its jobs and learns its end.
#include <thread>

#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator::testing {
namespace {

foundry::v1::ReleaseRequest Release(const std::string& worker, const std::string& lease_id) {
  foundry::v1::ReleaseRequest r;
  r.set_worker_id(worker);
  r.add_lease_ids(lease_id);
  return r;
}

TEST_F(CoordinatorTest, AReleasedLeaseIsLeasedAgainAtOnceNotAfterItsTtl) {
  CoordinatorOptions opts;
  opts.lease_ttl = std::chrono::hours(1);  // a lapse could never be what re-leases it
  Reopen(opts);
  auto c = core_->SubmitCampaign(Spec(300, 5, 60));
  const auto first = LeaseJob();

  // Another worker may not give it back; nor may anyone give back a made-up id.
  auto stranger = core_->ReleaseLeases(Release("intruder", first.lease_id()));
  ASSERT_TRUE(stranger.ok());
  EXPECT_EQ(stranger->released(), 0u);
  EXPECT_EQ(core_->ReleaseLeases(Release("w", "l-1-0000000000000000"))->released(), 0u);
  EXPECT_EQ(core_->ReleaseLeases(Release("", first.lease_id())).status().code(),
            Status::Code::kInvalidArgument);

  auto released = core_->ReleaseLeases(Release("w", first.lease_id()));
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->released(), 1u);
  // Released twice: nothing more to release.
  EXPECT_EQ(core_->ReleaseLeases(Release("w", first.lease_id()))->released(), 0u);

  auto again = core_->Lease(Request());
  ASSERT_TRUE(again.ok() && again->has_job());
  EXPECT_EQ(again->job().first_index(), first.first_index()) << "the released job comes first";
  foundry::v1::HeartbeatRequest hb;
  hb.set_lease_id(first.lease_id());
  EXPECT_EQ(core_->Heartbeat(hb).status().code(), Status::Code::kNotFound);

  ASSERT_TRUE(core_->SubmitResults(Run(again->job())).ok());
  const Campaign done = Drive(c->id());
  EXPECT_EQ(done.counters().stored(), 300u);

  // The same campaign never released anything stores the same puzzles.
  ExpectAFreshStoreGets(Spec(300, 5, 60), StoredIds());
}

TEST_F(CoordinatorTest, AWorkerOfOneCampaignGetsOnlyItsJobsAndLearnsItsEnd) {
  auto big = core_->SubmitCampaign(Spec(100000, 1, 100));
  auto small = core_->SubmitCampaign(Spec(120, 2, 40));
  ASSERT_TRUE(big.ok() && small.ok());

  auto unknown = Request("w");
  unknown.set_campaign_id("c-nope");
  auto refused = core_->Lease(unknown);
  EXPECT_EQ(refused.status().code(), Status::Code::kNotFound);
  EXPECT_NE(refused.status().message().find("c-nope"), std::string::npos);

  auto mine = Request("w");
  mine.set_campaign_id(small->id());
  for (int i = 0; i < 1000; ++i) {
    if (core_->GetCampaign(small->id())->state() != foundry::v1::CAMPAIGN_STATE_RUNNING) break;
    auto r = core_->Lease(mine);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->campaign_ended());
    if (!r->has_job()) continue;
    EXPECT_EQ(r->job().campaign_id(), small->id());
    ASSERT_TRUE(core_->SubmitResults(Run(r->job())).ok());
  }
  EXPECT_EQ(core_->GetCampaign(small->id())->state(), foundry::v1::CAMPAIGN_STATE_DONE);
  EXPECT_EQ(core_->GetCampaign(big->id())->next_index(), 0u) << "the other campaign was not run";

  auto after = core_->Lease(mine);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->campaign_ended());
  EXPECT_FALSE(after->has_job());
  // A worker of every campaign still gets the big one's work.
  auto any = core_->Lease(Request("w"));
  ASSERT_TRUE(any.ok() && any->has_job());
  EXPECT_EQ(any->job().campaign_id(), big->id());
}

TEST_F(CoordinatorTest, ChecksLeftWithoutAnyTakerWhenTheOtherWorkerStopsAreDoneAtOnce) {
  CoordinatorOptions opts;
  opts.verify_wait = std::chrono::hours(1);  // the fallback for checks nobody takes
  opts.lease_ttl = std::chrono::hours(1);
  Reopen(opts);
  auto c = core_->SubmitCampaign(Spec(100, 5, 50));
  auto w2_job = core_->Lease(Request("w2"));
  auto w1_job = core_->Lease(Request("w1"));
  ASSERT_TRUE(w2_job.ok() && w2_job->has_job() && w1_job.ok() && w1_job->has_job());
  // w2 is alive: w1's output waits for w2 to check it.
  ASSERT_TRUE(core_->SubmitResults(Run(w1_job->job())).ok());

  auto stopping = Release("w2", w2_job->job().lease_id());
  stopping.set_worker_stopping(true);
  ASSERT_EQ(core_->ReleaseLeases(stopping)->released(), 1u);
  auto again = core_->Lease(Request("w1"));
  ASSERT_TRUE(again.ok() && again->has_job());
  EXPECT_EQ(again->job().first_index(), w2_job->job().first_index());
  ASSERT_TRUE(core_->SubmitResults(Run(again->job())).ok());

  // Nobody is left to check w1's first job: the coordinator does, on its
  // next tick, not after verify_wait; both jobs commit.
  foundry::v1::Campaign now;
  for (int i = 0; i < 100; ++i) {
    now = *core_->GetCampaign(c->id());
    if (now.next_index() >= 100) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(now.next_index(), 100u) << "a check waited for a worker that had stopped";
  EXPECT_EQ(Drive(c->id(), "w1").counters().stored(), 100u);
}

}  // namespace
}  // namespace foundry::coordinator::testing
