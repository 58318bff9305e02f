// A network partition, for real: one worker runs inside a network namespace
// that this test creates (ip netns + a veth pair), the link is cut mid-job
// and healed. The worker's lease lapses, its job runs elsewhere, its late
// submission is harmless, and the campaign ends with the reference ids.
// Where namespaces cannot be made (not root, no iproute2), the test says so
// and skips.
#include <unistd.h>

#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

// Five-digit puzzles are slow to make (~460 candidates/s on a thread) and a
// job is 1000 candidates, so the partitioned worker spends seconds inside
// each job and milliseconds between them: when the link is cut it is
// certainly holding leases. (With short jobs CI caught it between RPCs.)
constexpr uint64_t kCount = 1000;
const std::vector<std::string> kGen = {
    "--family", "secret-number", "--count",  "1000",       "--seed",
    "77",       "--set",         "digits=5", "--job-size", "1000"};

bool Sh(const std::string& command) {
  return RunCommand({"/bin/sh", "-c", command + " >/dev/null 2>&1"}).exit_code == 0;
}

// A namespace with one veth pair: `outside` (host side, 10.213.<n>.1) and
// the namespace's side 10.213.<n>.2. Removed by the destructor.
class NetNamespace {
 public:
  NetNamespace() {
    const int n = static_cast<int>(getpid() % 250) + 1;
    name_ = "fnd" + std::to_string(getpid());
    outside_ = "fo" + std::to_string(getpid());
    inside_ = "fi" + std::to_string(getpid());
    host_ip_ = "10.213." + std::to_string(n) + ".1";
    const std::string ns_ip = "10.213." + std::to_string(n) + ".2";
    ok_ = Sh("ip netns add " + name_) &&
          Sh("ip link add " + outside_ + " type veth peer name " + inside_) &&
          Sh("ip link set " + inside_ + " netns " + name_) &&
          Sh("ip addr add " + host_ip_ + "/30 dev " + outside_) &&
          Sh("ip link set " + outside_ + " up") &&
          Sh("ip netns exec " + name_ + " ip addr add " + ns_ip + "/30 dev " + inside_) &&
          Sh("ip netns exec " + name_ + " ip link set " + inside_ + " up") &&
          Sh("ip netns exec " + name_ + " ip link set lo up");
  }
  ~NetNamespace() {
    Sh("ip link del " + outside_);
    Sh("ip netns del " + name_);
  }
  bool ok() const { return ok_; }
  const std::string& name() const { return name_; }
  const std::string& host_ip() const { return host_ip_; }
  bool Cut() { return Sh("ip link set " + outside_ + " down"); }
  bool Heal() { return Sh("ip link set " + outside_ + " up"); }

 private:
  bool ok_ = false;
  std::string name_, outside_, inside_, host_ip_;
};

TEST(PartitionTest, WorkerCutOffMidJobAndHealed) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to create network namespaces (ip netns)";
  TempDir dir;
  NetNamespace ns;
  if (!ns.ok()) GTEST_SKIP() << "cannot create a network namespace with a veth pair here";
  const auto reference = EmbeddedIds(dir.path() + "/reference", kGen);

  // The coordinator listens on the host end of the veth pair: off loopback,
  // so the test opts out of TLS explicitly.
  Subprocess coordinator(
      {Bin("foundry-coordinator"), "--listen", ns.host_ip() + ":0", "--db", dir.path() + "/db",
       "--metrics-listen", "127.0.0.1:0", "--lease-seconds", "1", "--insecure"},
      dir.path() + "/coordinator.log");
  const int port = WaitForNumberAfter(coordinator, "listening on port ");
  const int metrics_port = WaitForNumberAfter(coordinator, "metrics port ");
  ASSERT_GT(port, 0) << coordinator.Log();
  const std::string address = ns.host_ip() + ":" + std::to_string(port);
  // The partitioned worker starts alone, so that it certainly holds leases
  // (two loops, always one job in hand) when the link is cut.
  Subprocess inside({"/usr/sbin/ip", "netns", "exec", ns.name(), Bin("foundry-worker"),
                     "--coordinator", address, "--threads", "1", "--worker-id", "partitioned"},
                    dir.path() + "/worker-inside.log");
  const std::string id = SubmitCampaign(address, kGen);
  ASSERT_TRUE(WaitUntilStored(address, id, 1)) << coordinator.Log() << inside.Log();
  ASSERT_TRUE(ns.Cut());
  ASSERT_LT(CampaignStatus(address, id).stored, kCount) << "the campaign ended before the cut";
  Subprocess outside({Bin("foundry-worker"), "--coordinator", address, "--threads", "1"},
                     dir.path() + "/worker-outside.log");
  // Keep the link down until the coordinator has seen a lease lapse (one
  // lifetime is 1 s), at most 20 s.
  double lapsed = 0;
  for (int i = 0; i < 100 && lapsed < 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    lapsed = ScrapeMetric(metrics_port, "foundry_lease_expirations_total");
  }
  ASSERT_TRUE(ns.Heal());

  auto watched = WatchCampaign(address, id);
  ASSERT_EQ(watched.exit_code, 0) << watched.out << watched.err;
  const auto ids = ExportedIds(address);
  EXPECT_EQ(ids.size(), kCount);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()),
            std::set<std::string>(reference.begin(), reference.end()));
  EXPECT_GE(lapsed, 1.0) << "the cut-off worker's lease should have lapsed\n"
                         << inside.Log() << outside.Log();
  EXPECT_TRUE(inside.running()) << "the partitioned worker should ride out the partition";
  inside.Stop();
  outside.Stop();
  coordinator.Stop();
}

}  // namespace
}  // namespace foundry::testing
