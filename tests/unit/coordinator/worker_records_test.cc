// Worker ids are chosen by workers: the records the coordinator keeps of them
// are bounded (TrustOptions::max_workers) and forgotten when quiet, except
// what a quarantine would need.
#include <gmock/gmock.h>

#include "coordinator/worker_trust.h"
#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator::testing {
namespace {

using Clock = WorkerTrust::Clock;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr auto kTtl = seconds(15);

// The ids WorkerTrust::List shows, quiet ones included.
std::vector<std::string> Known(const WorkerTrust& trust) {
  std::vector<std::string> ids;
  for (const auto& w : trust.List(Clock::time_point::min(), {})) ids.push_back(w.worker_id());
  return ids;
}

// A request from `worker` at `at`, as a Lease makes it.
Status Arrive(WorkerTrust& trust, const std::string& worker, Clock::time_point at) {
  Status s = trust.Claim(worker, "key-" + worker, at, kTtl);
  if (s.ok()) trust.Seen(worker, 1, "", at);
  return s;
}

TEST(WorkerRecordsTest, QuietRecordsAreForgottenUnlessAQuarantineNeedsThem) {
  WorkerTrust trust({.probation_jobs = 1, .forget_after = hours(1)});
  const auto t0 = Clock::now();
  for (const char* id : {"idle", "caught", "sampled", "recent"}) {
    ASSERT_TRUE(Arrive(trust, id, t0).ok());
  }
  trust.Agreed("idle", /*full=*/true, 100, 10, t0);  // trusted, nothing on a sample
  trust.Quarantine("caught", "lied");
  trust.Agreed("sampled", true, 100, 10, t0);
  trust.CommittedOnSample("sampled", SampledCommit{"c", 7, 42, {}, 0, 0});
  ASSERT_TRUE(Arrive(trust, "recent", t0 + minutes(40)).ok());

  EXPECT_EQ(trust.ForgetQuiet(t0 + minutes(59)), 0u);
  EXPECT_EQ(trust.ForgetQuiet(t0 + minutes(61)), 1u);
  EXPECT_THAT(Known(trust), ::testing::UnorderedElementsAre("caught", "sampled", "recent"));
  EXPECT_TRUE(trust.Quarantined("caught"));

  // The forgotten id comes back as a new worker: on probation, no history.
  ASSERT_TRUE(Arrive(trust, "idle", t0 + minutes(62)).ok());
  for (const auto& w : trust.List(Clock::time_point::min(), {})) {
    if (w.worker_id() != "idle") continue;
    EXPECT_EQ(w.state(), foundry::v1::WORKER_STATE_PROBATION);
    EXPECT_EQ(w.jobs_agreed(), 0u);
  }
}

TEST(WorkerRecordsTest, AFullTableGivesTheQuietestRecordsPlaceToNewIds) {
  WorkerTrust trust({.max_workers = 3});
  const auto t0 = Clock::now();
  ASSERT_TRUE(Arrive(trust, "a", t0).ok());
  ASSERT_TRUE(Arrive(trust, "b", t0 + seconds(1)).ok());
  ASSERT_TRUE(Arrive(trust, "c", t0 + seconds(2)).ok());
  // 20 s on, all three were quiet past the lease TTL: the quietest goes.
  ASSERT_TRUE(Arrive(trust, "d", t0 + seconds(20)).ok());
  EXPECT_THAT(Known(trust), ::testing::UnorderedElementsAre("b", "c", "d"));
  ASSERT_TRUE(Arrive(trust, "e", t0 + seconds(20)).ok());
  EXPECT_THAT(Known(trust), ::testing::UnorderedElementsAre("c", "d", "e"));
  EXPECT_EQ(trust.size(), 3u);
}

TEST(WorkerRecordsTest, AFullTableOfActiveWorkersTurnsANewIdAway) {
  WorkerTrust trust({.max_workers = 2});
  const auto t0 = Clock::now();
  ASSERT_TRUE(Arrive(trust, "a", t0).ok());
  ASSERT_TRUE(Arrive(trust, "b", t0).ok());
  const Status refused = Arrive(trust, "newcomer", t0 + seconds(5));
  EXPECT_EQ(refused.code(), Status::Code::kResourceExhausted);
  EXPECT_THAT(refused.message(),
              ::testing::HasSubstr("this coordinator already keeps 2 worker records (its limit)"));
  EXPECT_THAT(refused.message(), ::testing::HasSubstr("worker id 'newcomer' is turned away"));
  EXPECT_TRUE(Arrive(trust, "a", t0 + seconds(5)).ok()) << "known ids are served";

  // A record holding jobs a quarantine would audit is never given up.
  WorkerTrust one({.probation_jobs = 0, .max_workers = 1});
  ASSERT_TRUE(Arrive(one, "trusted", t0).ok());
  one.CommittedOnSample("trusted", SampledCommit{"c", 7, 42, {}, 0, 0});
  EXPECT_EQ(Arrive(one, "next", t0 + hours(2)).code(), Status::Code::kResourceExhausted);
  EXPECT_THAT(Known(one), ::testing::ElementsAre("trusted"));
}

// Quarantined records outlast the hourly sweep (an operator sees what was
// caught) and give place last, but they do give place: a liar caught under
// as many ids as the table holds must not lock every new worker out.
TEST(WorkerRecordsTest, QuarantinedRecordsGivePlaceLast) {
  WorkerTrust trust({.max_workers = 3, .forget_after = hours(1)});
  const auto t0 = Clock::now();
  ASSERT_TRUE(Arrive(trust, "liar-1", t0).ok());
  ASSERT_TRUE(Arrive(trust, "liar-2", t0 + seconds(1)).ok());
  ASSERT_TRUE(Arrive(trust, "quiet", t0 + seconds(2)).ok());
  trust.Quarantine("liar-1", "forged");
  trust.Quarantine("liar-2", "forged");
  EXPECT_EQ(trust.ForgetQuiet(t0 + hours(2)), 1u);  // "quiet" only
  ASSERT_TRUE(Arrive(trust, "quiet", t0 + hours(2)).ok());
  // Full: the quietest record goes, but not a quarantined one while
  // another may go.
  ASSERT_TRUE(Arrive(trust, "new-1", t0 + hours(3)).ok());
  EXPECT_THAT(Known(trust), ::testing::UnorderedElementsAre("liar-1", "liar-2", "new-1"));
  ASSERT_TRUE(Arrive(trust, "new-2", t0 + hours(3)).ok());
  EXPECT_THAT(Known(trust), ::testing::UnorderedElementsAre("liar-2", "new-1", "new-2"));
}

class WorkerRecordsDeskTest : public CoordinatorTest {};

// Before the bound a Lease per made-up id kept ~850 bytes for the
// coordinator's life (100,000 ids: 62 -> 147 MB resident).
TEST_F(WorkerRecordsDeskTest, MadeUpIdsCannotGrowTheTablePastItsBound) {
  CoordinatorOptions opts;
  opts.trust.max_workers = 5;
  Reopen(opts);
  ASSERT_TRUE(core_->SubmitCampaign(Spec(100000, 5, 60)).ok());
  int refused = 0;
  for (int i = 0; i < 20; ++i) {
    auto r = core_->Lease(Request("sybil-" + std::to_string(i)));
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Status::Code::kResourceExhausted) << r.status().ToString();
      ++refused;
    }
  }
  EXPECT_EQ(refused, 15);
  EXPECT_EQ(core_->ListWorkers().workers_size(), 5);
}

TEST_F(WorkerRecordsDeskTest, AHeartbeatMakesNoWorkerRecord) {
  ASSERT_TRUE(core_->SubmitCampaign(Spec(100000, 5, 60)).ok());
  auto lease = core_->Lease(Request("real"));
  ASSERT_TRUE(lease.ok() && lease->has_job());
  foundry::v1::HeartbeatRequest hb;
  hb.set_worker_id(std::string(100000, 'x'));  // past the 256-byte limit of a Lease
  hb.set_lease_id("no-such-lease");
  EXPECT_EQ(core_->Heartbeat(hb).status().code(), Status::Code::kNotFound);
  hb.set_lease_id(lease->job().lease_id());  // another worker's lease: extended, not its id
  EXPECT_TRUE(core_->Heartbeat(hb).ok());
  auto workers = core_->ListWorkers();
  ASSERT_EQ(workers.workers_size(), 1);
  EXPECT_EQ(workers.workers(0).worker_id(), "real");
}

}  // namespace
}  // namespace foundry::coordinator::testing
