// Workers under a batch scheduler, with real processes: SIGTERM hands the
// leases back (no job waits for a lease to lapse), workers end by themselves
// when there is no more work, and a rendezvous file tells workers where the
// coordinator is, even after it moved. Every campaign still ends with the
// ids of an undisturbed run.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kGen = {
    "--family", "secret-number", "--count",  "6000",       "--seed",
    "2030",     "--set",         "digits=4", "--job-size", "200"};
// The SIGTERM test's: twice as long, so that its three stops (each waiting
// for a worker to exit, on a machine busy with other tests) still find the
// workers in jobs rather than idle at the campaign's end.
const std::vector<std::string> kLongGen = {
    "--family", "secret-number", "--count",  "12000",      "--seed",
    "2030",     "--set",         "digits=4", "--job-size", "400"};

std::set<std::string> AsSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

class BatchWorkerTest : public ::testing::Test {
 protected:
  // The ids `foundry run` stores for `gen`, run in the folder reference-`name`.
  std::set<std::string> Reference(const std::string& name, const std::vector<std::string>& gen) {
    return AsSet(EmbeddedIds(dir_.path() + "/reference-" + name, gen));
  }

  // Waits for campaign `id` to end and checks its ids against `reference`
  // (each test runs its own before its campaign starts, not beside it).
  void ExpectReference(const std::string& address, const std::string& id,
                       const std::set<std::string>& reference) {
    auto watched = WatchCampaign(address, id);
    ASSERT_EQ(watched.exit_code, 0) << watched.out << watched.err;
    const auto ids = ExportedIds(address);
    EXPECT_EQ(ids.size(), reference.size());
    EXPECT_EQ(AsSet(ids), reference);
  }

  TempDir dir_;
};

TEST_F(BatchWorkerTest, SigtermHandsTheLeasesBackSoNoJobWaitsForALapse) {
  // A lease lives 120 s: a job whose lease had to lapse would hold the
  // campaign up that long.
  const std::set<std::string> reference = Reference("long", kLongGen);
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 3, 1, /*lease_seconds=*/120.0);
  ASSERT_TRUE(cluster.ok());
  const std::string id = SubmitCampaign(cluster.address(), kLongGen);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 1000));

  // A worker caught between two jobs (submitting one, leasing the next)
  // holds no lease to hand back: stop workers one at a time until one has.
  // Each is in a job nearly all the time; three in a row between jobs is not
  // to be expected.
  Clock::time_point term_at;
  double released = 0;
  size_t stopped = 0;
  while (stopped < 3 && released < 1) {
    term_at = Clock::now();
    cluster.worker(stopped).Signal(SIGTERM);
    auto code = cluster.worker(stopped).Wait(10s);
    ASSERT_TRUE(code.has_value()) << "worker " << stopped << " did not exit within 10 s of SIGTERM";
    EXPECT_EQ(*code, 0) << cluster.worker(stopped).Log();
    EXPECT_LT(Clock::now() - term_at, 6s);
    ++stopped;
    // The worker hands its lease back before it exits: counted by now.
    released = ScrapeMetric(cluster.metrics_port(), "foundry_leases_released_total");
  }
  EXPECT_GE(released, 1) << "none of the " << stopped << " workers stopped held a lease";
  if (stopped == 3) cluster.AddWorker(1);  // someone must finish the campaign

  ExpectReference(cluster.address(), id, reference);
  EXPECT_LT(Clock::now() - term_at, 90s) << "the campaign waited for a lease to lapse";
  EXPECT_EQ(ScrapeMetric(cluster.metrics_port(), "foundry_lease_expirations_total"), 0);
  // A handed-back generation job was leased again soon (its lease had 120 s
  // left). The stopped workers may have held only checks, which the
  // histogram does not time: then there is nothing to compare.
  const double relet =
      ScrapeMetric(cluster.metrics_port(), "foundry_released_job_wait_seconds_count");
  const double waited =
      ScrapeMetric(cluster.metrics_port(), "foundry_released_job_wait_seconds_sum");
  EXPECT_GE(relet, 0);
  EXPECT_LE(waited, 10 * relet) << waited << " s in all for " << relet << " job(s)";
}

TEST_F(BatchWorkerTest, WorkersEndByThemselvesWhenTheirCampaignOrTheWorkIsOver) {
  const std::set<std::string> reference = Reference("short", kGen);
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 0, 1, /*lease_seconds=*/5.0);
  ASSERT_TRUE(cluster.ok());
  const std::string id = SubmitCampaign(cluster.address(), kGen);
  const size_t of_campaign = cluster.AddWorker(1, {"--campaign", id});
  const size_t idle_exit = cluster.AddWorker(1, {"--exit-when-idle", "2s"});
  ExpectReference(cluster.address(), id, reference);
  const auto ended_at = Clock::now();

  auto a = cluster.worker(of_campaign).Wait(15s);
  ASSERT_TRUE(a.has_value()) << "the campaign's worker did not exit after the campaign";
  EXPECT_EQ(*a, 0);
  EXPECT_NE(cluster.worker(of_campaign).Log().find("campaign ended"), std::string::npos)
      << cluster.worker(of_campaign).Log();
  auto b = cluster.worker(idle_exit).Wait(15s);
  ASSERT_TRUE(b.has_value()) << "the idle worker did not exit";
  EXPECT_EQ(*b, 0);
  EXPECT_NE(cluster.worker(idle_exit).Log().find("no job for 2000 ms"), std::string::npos);
  EXPECT_LT(Clock::now() - ended_at, 12s);

  // A worker of a campaign the coordinator does not know stops at once, saying so.
  const size_t lost = cluster.AddWorker(1, {"--campaign", "c-0000000000000000"});
  auto c = cluster.worker(lost).Wait(15s);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, 3);
  EXPECT_NE(cluster.worker(lost).Log().find("no campaign 'c-0000000000000000'"), std::string::npos);
}

TEST_F(BatchWorkerTest, WorkersFindTheCoordinatorByItsAddressFileAndFollowItWhenItMoves) {
  const std::set<std::string> reference = Reference("short", kGen);
  const std::string rendezvous = dir_.path() + "/coordinator.addr";
  // The workers start first and wait for the file (array tasks may start
  // before the coordinator's job does).
  std::vector<std::unique_ptr<Subprocess>> workers;
  for (int i = 0; i < 2; ++i) {
    workers.push_back(std::make_unique<Subprocess>(
        std::vector<std::string>{Bin("foundry-worker"), "--coordinator-file", rendezvous,
                                 "--threads", "1", "--exit-when-idle", "60s", "--worker-id",
                                 "w" + std::to_string(i)},
        dir_.path() + "/worker-" + std::to_string(i) + ".log"));
  }
  auto start_coordinator = [&](int n) {
    return std::make_unique<Subprocess>(
        std::vector<std::string>{Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db",
                                 dir_.path() + "/db", "--lease-seconds", "2", "--address-file",
                                 rendezvous},
        dir_.path() + "/coordinator-" + std::to_string(n) + ".log");
  };
  std::this_thread::sleep_for(500ms);
  EXPECT_TRUE(workers[0]->running()) << workers[0]->Log();
  auto coordinator = start_coordinator(0);
  const int port = WaitForNumberAfter(*coordinator, "listening on port ");
  ASSERT_GT(port, 0);
  for (int i = 0; i < 50 && ReadFile(rendezvous).empty(); ++i) std::this_thread::sleep_for(100ms);
  const std::string first = "127.0.0.1:" + std::to_string(port);
  EXPECT_EQ(ReadFile(rendezvous), first);
  const std::string id = SubmitCampaign(first, kGen);
  ASSERT_TRUE(WaitUntilStored(first, id, 1000));

  // Killed (a node lost): the file still names the dead one. Its successor
  // (a requeued job, here on another port) rewrites it; the workers follow.
  coordinator->Signal(SIGKILL);
  coordinator->Wait(10s);
  coordinator = start_coordinator(1);
  const int moved_port = WaitForNumberAfter(*coordinator, "listening on port ");
  ASSERT_GT(moved_port, 0);
  const std::string moved = "127.0.0.1:" + std::to_string(moved_port);
  for (int i = 0; i < 50 && ReadFile(rendezvous) != moved; ++i) std::this_thread::sleep_for(100ms);
  ASSERT_EQ(ReadFile(rendezvous), moved);
  ExpectReference(moved, id, reference);
  EXPECT_NE(workers[0]->Log().find("moved to " + moved), std::string::npos) << workers[0]->Log();

  // A clean stop removes the file: no worker started later dials a dead address.
  EXPECT_EQ(coordinator->Stop(), 0);
  EXPECT_FALSE(std::filesystem::exists(rendezvous));
  for (auto& w : workers) EXPECT_EQ(w->Stop(), 0) << w->Log();
}

}  // namespace
}  // namespace foundry::testing
