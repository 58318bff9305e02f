// Fault injection with real processes: kill -9 of workers and of the
// coordinator mid-campaign. Each campaign must end with exactly its count,
// no duplicate, and the very ids an undisturbed embedded run stores.
#include <set>

#include <gtest/gtest.h>

#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

// Four-digit secret numbers: slow enough per puzzle that a campaign of this
// size runs for seconds, long enough to be hit mid-flight.
const std::vector<std::string> kGen = {
    "--family", "secret-number", "--count",  "6000",       "--seed",
    "2026",     "--set",         "digits=4", "--job-size", "200"};

std::set<std::string> AsSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override { reference_ = EmbeddedIds(dir_.path() + "/reference", kGen); }

  // The campaign's outcome on `cluster` equals the reference exactly.
  void ExpectReference(LocalCluster& cluster, const std::string& id) {
    auto watched = WatchCampaign(cluster.address(), id);
    ASSERT_EQ(watched.exit_code, 0) << watched.out << watched.err << cluster.CoordinatorLog();
    const auto ids = ExportedIds(cluster.address());
    EXPECT_EQ(ids.size(), 6000u);
    EXPECT_EQ(AsSet(ids).size(), ids.size()) << "duplicate ids";
    EXPECT_EQ(AsSet(ids), AsSet(reference_));
  }

  TempDir dir_;
  std::vector<std::string> reference_;
};

TEST_F(FaultTest, OneWorkerOneThreadReproducesTheReference) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 1, 1);
  ASSERT_TRUE(cluster.ok());
  ExpectReference(cluster, SubmitCampaign(cluster.address(), kGen));
}

TEST_F(FaultTest, ThreeWorkersTwoThreadsReproduceTheReference) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 3, 2);
  ASSERT_TRUE(cluster.ok());
  ExpectReference(cluster, SubmitCampaign(cluster.address(), kGen));
}

TEST_F(FaultTest, WorkerKilledTwiceMidCampaignLosesAndDuplicatesNothing) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 3, 1, /*lease_seconds=*/1.0);
  ASSERT_TRUE(cluster.ok());
  const std::string id = SubmitCampaign(cluster.address(), kGen);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 1000));
  cluster.KillWorker(0);
  const size_t replacement = cluster.AddWorker(1);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 3000));
  cluster.KillWorker(replacement);
  ExpectReference(cluster, id);
  EXPECT_NE(cluster.CoordinatorLog().find("listening"), std::string::npos);
}

TEST_F(FaultTest, CoordinatorKilledMidCampaignResumesAndFinishesTheSame) {
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), 2, 1, /*lease_seconds=*/1.0);
  ASSERT_TRUE(cluster.ok());
  const std::string id = SubmitCampaign(cluster.address(), kGen);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 2000));
  const uint64_t before = CampaignStatus(cluster.address(), id).stored;
  const auto crash = std::chrono::steady_clock::now();
  ASSERT_TRUE(cluster.CrashAndRestartCoordinator()) << cluster.CoordinatorLog();

  // Nothing committed before the crash is lost; the workers come back alone.
  const CampaignView resumed = CampaignStatus(cluster.address(), id);
  EXPECT_EQ(resumed.state, "CAMPAIGN_STATE_RUNNING");
  EXPECT_GE(resumed.stored, before);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, resumed.stored + 1, std::chrono::seconds(60)))
      << "no progress after the restart";
  const double recovery =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - crash).count();
  RecordProperty("recovery_seconds", std::to_string(recovery));
  std::printf("recovery after coordinator kill -9: %.2f s to the next commit\n", recovery);
  ExpectReference(cluster, id);
}

}  // namespace
}  // namespace foundry::testing
