// The lease loop against a scripted JobSource: it runs what it leases,
// retries through outages, and drops a job the coordinator no longer wants.
#include "worker/lease_loop.h"

#include <chrono>
#include <deque>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

namespace foundry::worker {
namespace {

foundry::v1::Job MakeJob(const std::string& lease, uint64_t first, uint64_t end) {
  foundry::v1::Job j;
  j.set_lease_id(lease);
  j.set_campaign_id("c-test");
  j.set_family("secret-number");
  j.set_params_json("{}");
  j.set_seed(1);
  j.set_first_index(first);
  j.set_end_index(end);
  j.set_heartbeat_interval_ms(50);
  return j;
}

class ScriptedSource : public JobSource {
 public:
  std::deque<Result<foundry::v1::LeaseResponse>> leases;
  std::deque<Status> submit_failures;         // returned before a success
  std::chrono::milliseconds submit_delay{0};  // each Submit takes this long
  int heartbeats_while_submitting = 0;
  bool keep_going = true;
  std::vector<std::vector<foundry::v1::ResultChunk>> submitted;
  int heartbeats = 0;
  int lease_calls = 0;
  std::vector<std::string> released;
  std::vector<std::string> campaigns_asked;  // LeaseRequest.campaign_id of each call

  Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& req) override {
    std::lock_guard l(mu);
    ++lease_calls;
    campaigns_asked.push_back(req.campaign_id());
    if (leases.empty()) return foundry::v1::LeaseResponse{};
    auto r = leases.front();
    leases.pop_front();
    return r;
  }
  Result<foundry::v1::HeartbeatResponse> Heartbeat(const foundry::v1::HeartbeatRequest&) override {
    std::lock_guard l(mu);
    ++heartbeats;
    foundry::v1::HeartbeatResponse r;
    r.set_keep_going(keep_going);
    return r;
  }
  Result<foundry::v1::SubmitResponse> Submit(
      std::vector<foundry::v1::ResultChunk> chunks) override {
    if (submit_delay.count() > 0) {
      int before = 0;
      {
        std::lock_guard l(mu);
        before = heartbeats;
      }
      std::this_thread::sleep_for(submit_delay);
      std::lock_guard l(mu);
      heartbeats_while_submitting += heartbeats - before;
    }
    std::lock_guard l(mu);
    if (!submit_failures.empty()) {
      Status s = submit_failures.front();
      submit_failures.pop_front();
      return s;
    }
    submitted.push_back(std::move(chunks));
    foundry::v1::SubmitResponse r;
    r.set_accepted(true);
    return r;
  }
  Result<foundry::v1::ReleaseResponse> Release(const foundry::v1::ReleaseRequest& req) override {
    std::lock_guard l(mu);
    for (const auto& id : req.lease_ids()) released.push_back(id);
    foundry::v1::ReleaseResponse r;
    r.set_released(static_cast<uint32_t>(req.lease_ids_size()));
    return r;
  }
  std::mutex mu;
};

foundry::v1::LeaseResponse WithJob(foundry::v1::Job job) {
  foundry::v1::LeaseResponse r;
  *r.mutable_job() = std::move(job);
  return r;
}

LeaseLoopOptions Options() {
  LeaseLoopOptions o;
  o.worker_id = "w1";
  o.backoff_min = std::chrono::milliseconds(1);
  o.backoff_max = std::chrono::milliseconds(4);
  o.stop_when_idle = true;
  return o;
}

TEST(LeaseLoopTest, RunsEachLeasedJobAndSubmitsItThroughOutages) {
  ScriptedSource src;
  src.leases.push_back(Status::Unavailable("coordinator restarting"));
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 300)));
  src.leases.push_back(WithJob(MakeJob("l-2", 300, 600)));
  src.submit_failures.push_back(Status::Unavailable("blip"));
  JobExecutor ex(2);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  ASSERT_EQ(src.submitted.size(), 2u);
  EXPECT_EQ(loop.jobs_completed(), 2u);
  EXPECT_EQ(src.submitted[0].front().lease_id(), "l-1");
  EXPECT_EQ(src.submitted[1].back().stats().candidates(), 300u);
  EXPECT_TRUE(src.submitted[1].back().last());
}

// A Submit that waits (an in-process one queued behind other jobs on the
// executor, or a slow upload) keeps its lease: heartbeats go on meanwhile,
// at the interval the job asks for (50 ms here).
TEST(LeaseLoopTest, ASlowSubmitKeepsItsLeaseWithHeartbeats) {
  ScriptedSource src;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 10)));
  src.submit_delay = std::chrono::milliseconds(600);
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  ASSERT_EQ(src.submitted.size(), 1u);
  // 600 ms at one beat per 50 ms: about 11; a loaded machine may give fewer.
  EXPECT_GE(src.heartbeats_while_submitting, 3);
}

TEST(LeaseLoopTest, NotFoundOnSubmitDropsTheJobAndCarriesOn) {
  ScriptedSource src;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 100)));
  src.leases.push_back(WithJob(MakeJob("l-2", 100, 200)));
  src.submit_failures.push_back(Status::NotFound("coordinator forgot the lease"));
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  ASSERT_EQ(src.submitted.size(), 1u);
  EXPECT_EQ(src.submitted[0].front().lease_id(), "l-2");
}

TEST(LeaseLoopTest, UnknownFamilyIsNotSubmitted) {
  ScriptedSource src;
  auto job = MakeJob("l-1", 0, 100);
  job.set_family("no-such-family");
  src.leases.push_back(WithJob(job));
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_TRUE(src.submitted.empty());
}

TEST(LeaseLoopTest, JobTheCoordinatorNoLongerWantsIsCancelledNotSubmitted) {
  ScriptedSource src;
  src.keep_going = false;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 50'000'000)));  // minutes of work
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_GE(src.heartbeats, 1);
  EXPECT_TRUE(src.submitted.empty());
}

TEST(LeaseLoopTest, DrainFinishesAndSubmitsTheJobInProgressThenStops) {
  ScriptedSource src;
  // Long enough (~0.2 s in Release) that the drain, set microseconds after
  // the lease, lands while it runs; 300,000 took 77 s under TSan.
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 20'000)));
  src.leases.push_back(WithJob(MakeJob("l-2", 20'000, 40'000)));
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> drain{false}, stop{false};
  std::thread t([&] { loop.Run(drain, stop); });
  while (true) {  // until the first job is leased
    std::lock_guard l(src.mu);
    if (src.lease_calls > 0) break;
  }
  drain = true;
  t.join();
  ASSERT_EQ(src.submitted.size(), 1u) << "the job in progress is handed in";
  EXPECT_EQ(src.submitted[0].front().lease_id(), "l-1");
  EXPECT_EQ(src.lease_calls, 1) << "no new job after the drain";
}

TEST(LeaseLoopTest, StopsWhenTold) {
  ScriptedSource src;  // never any job
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> stop{false};
  std::thread t([&] { loop.Run(stop); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  stop = true;
  t.join();
  EXPECT_GT(src.lease_calls, 0);
}

TEST(LeaseLoopTest, StopHandsTheLeaseInProgressBackAtOnce) {
  ScriptedSource src;
  // Long enough that the stop lands while it runs.
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 50'000'000)));
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  IdleWatch idle;
  opts.idle = &idle;
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> stop{false};
  std::thread t([&] { loop.Run(stop); });
  while (true) {  // until the job is leased
    std::lock_guard l(src.mu);
    if (src.lease_calls > 0) break;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(idle.IdleFor(std::chrono::milliseconds(0))) << "a job runs: not idle";
  const auto stopped_at = std::chrono::steady_clock::now();
  stop = true;
  t.join();
  EXPECT_LT(std::chrono::steady_clock::now() - stopped_at, std::chrono::seconds(5));
  ASSERT_EQ(src.released.size(), 1u) << "the lease is handed back, not left to lapse";
  EXPECT_EQ(src.released[0], "l-1");
  EXPECT_TRUE(src.submitted.empty());
  EXPECT_TRUE(idle.IdleFor(std::chrono::milliseconds(0))) << "the job ended: idle again";
}

TEST(LeaseLoopTest, OneCampaignsWorkerAsksForItAndReturnsWhenItEnds) {
  ScriptedSource src;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 100)));
  foundry::v1::LeaseResponse ended;
  ended.set_campaign_ended(true);
  src.leases.push_back(ended);
  src.leases.push_back(WithJob(MakeJob("l-2", 100, 200)));  // never reached
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  opts.campaign_id = "c-test";
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_TRUE(loop.campaign_ended());
  EXPECT_TRUE(loop.refused().empty());
  EXPECT_EQ(src.submitted.size(), 1u);
  ASSERT_EQ(src.campaigns_asked.size(), 2u);
  EXPECT_EQ(src.campaigns_asked[0], "c-test");
}

TEST(LeaseLoopTest, AnUnknownCampaignIsARefusalNotARetry) {
  ScriptedSource src;
  src.leases.push_back(Status::NotFound("no campaign 'c-x' on this coordinator"));
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  opts.campaign_id = "c-x";
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_NE(loop.refused().find("c-x"), std::string::npos) << loop.refused();
}

TEST(LeaseLoopTest, ACertificateThatFailsVerificationEndsTheLoopWithTheCause) {
  ScriptedSource src;
  for (int i = 0; i < 5; ++i) {
    src.leases.push_back(Status::Unavailable(
        "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.0.1:7420: Ssl "
        "handshake failed: SSL_ERROR_SSL: error:1000007d:SSL routines:OPENSSL_internal:"
        "CERTIFICATE_VERIFY_FAILED"));
  }
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_NE(loop.refused().find("certificate"), std::string::npos) << loop.refused();
  EXPECT_LE(src.lease_calls, 3) << "gave up after a few tries, not a hang";
}

TEST(LeaseLoopTest, AnOutageIsRetriedNotARefusal) {
  ScriptedSource src;
  for (int i = 0; i < 5; ++i) src.leases.push_back(Status::Unavailable("Connection refused"));
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());  // stop_when_idle: ends at the first empty lease
  std::atomic<bool> stop{false};
  loop.Run(stop);
  EXPECT_TRUE(loop.refused().empty());
  EXPECT_EQ(src.lease_calls, 6);
}

// A coordinator that holds as many submissions as it may refuses one for
// now: the worker sends it again, as through an outage.
TEST(LeaseLoopTest, ASubmissionRefusedForNowIsSentAgain) {
  ScriptedSource src;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 100)));
  src.submit_failures.push_back(Status::ResourceExhausted("holds 1073741824 bytes"));
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  loop.Run(stop);
  ASSERT_EQ(src.submitted.size(), 1u);
  EXPECT_EQ(loop.jobs_completed(), 1u);
}

// A coordinator that keeps as many workers as it may turns new ids away
// for now: told as such (not as an outage), and retried.
TEST(LeaseLoopTest, AFullCoordinatorTurnsTheWorkerAwayForNow) {
  ScriptedSource src;
  for (int i = 0; i < 3; ++i) {
    src.leases.push_back(Status::ResourceExhausted("10000 worker records (its limit)"));
  }
  JobExecutor ex(1);
  LeaseLoop loop(src, ex, nullptr, Options());
  std::atomic<bool> stop{false};
  testing::internal::CaptureStderr();
  loop.Run(stop);
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(loop.refused().empty());
  EXPECT_EQ(src.lease_calls, 4);
  EXPECT_NE(out.find("turns this worker away for now (10000 worker records"), std::string::npos)
      << out;
  EXPECT_EQ(out.find("unreachable"), std::string::npos) << out;
}

// The campaign ended and its coordinator stopped while a job ran: the
// finished job's submission cannot get through. For --exit-when-idle the
// worker is idle from the first failure, and once it leaves the submission
// is dropped at once instead of being retried for a minute.
TEST(LeaseLoopTest, ASubmissionToAGoneCoordinatorIsIdleAndDroppedWhenLeaving) {
  ScriptedSource src;
  src.leases.push_back(WithJob(MakeJob("l-1", 0, 200)));
  for (int i = 0; i < 20; ++i) src.submit_failures.push_back(Status::Unavailable("refused"));
  JobExecutor ex(1);
  auto opts = Options();
  opts.stop_when_idle = false;
  opts.backoff_min = std::chrono::milliseconds(5000);  // each retry waits seconds
  opts.backoff_max = std::chrono::milliseconds(5000);
  IdleWatch idle;
  opts.idle = &idle;
  std::atomic<bool> leaving{false};
  opts.abandon_submissions = &leaving;
  LeaseLoop loop(src, ex, nullptr, opts);
  std::atomic<bool> drain{false};
  std::atomic<bool> stop{false};
  std::thread t([&] { loop.Run(drain, stop); });
  // Until the first submission has failed (the failures left shrink).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard l(src.mu);
      if (src.submit_failures.size() < 20) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(idle.IdleFor(std::chrono::milliseconds(0)))
      << "a finished job that cannot be submitted counts as idle";
  const auto left_at = std::chrono::steady_clock::now();
  leaving = true;
  drain = true;
  t.join();
  EXPECT_LT(std::chrono::steady_clock::now() - left_at, std::chrono::seconds(2))
      << "the retry's backoff was not cut short";
  EXPECT_TRUE(src.submitted.empty());
  EXPECT_GE(src.submit_failures.size(), 17u) << "dropped, not retried";
  EXPECT_TRUE(idle.IdleFor(std::chrono::milliseconds(0)));
}

}  // namespace
}  // namespace foundry::worker
