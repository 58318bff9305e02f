// Backups and restores with real processes: an online backup while a
// campaign commits and plays are recorded, a campaign resumed from a
// restored backup, listing and verification (a damaged backup is caught),
// backups of stopped stores, and the restores that must be refused.
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "foundry/v1/store.grpc.pb.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

namespace fs = std::filesystem;
namespace v1 = foundry::v1;

// Four-digit secret numbers in small jobs: a campaign of seconds that the
// backup lands in the middle of (as in fault_test.cc).
constexpr size_t kCount = 6000;
const std::vector<std::string> kGen = {
    "--family", "secret-number", "--count",  std::to_string(kCount), "--seed",
    "3535",     "--set",         "digits=4", "--job-size",           "200"};

std::set<std::string> AsSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

CommandResult Foundry(std::vector<std::string> args) {
  args.insert(args.begin(), Bin("foundry"));
  return RunCommand(args);
}

// The whole export of a coordinator or store directory, as JSON Lines.
std::string Export(const std::string& address_or_dir, bool db) {
  auto r = Foundry({"export", db ? "--db" : "--coordinator", address_or_dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// Records `n` plays, one on each of the first puzzles of `ids`.
void RecordPlays(const std::string& address, const std::vector<std::string>& ids, size_t n) {
  auto stub =
      v1::PuzzleStore::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  for (size_t i = 0; i < n && i < ids.size(); ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::RecordPlayRequest req;
    req.set_id(ids[i]);
    req.set_solved(i % 3 != 0);
    req.set_seconds(10.0 + static_cast<double>(i));
    v1::RecordPlayResponse resp;
    ASSERT_TRUE(stub->RecordPlay(&ctx, req, &resp).ok());
  }
}

class BackupTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  TempDir dir_;
};

TEST_F(BackupTest, OnlineBackupDuringACampaignRestoresTheSameAnswers) {
  LocalCluster cluster(Path("db"), dir_.path(), 2, 1);
  ASSERT_TRUE(cluster.ok());
  const std::string id = SubmitCampaign(cluster.address(), kGen);
  ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 1000));
  const std::vector<std::string> early = ExportedIds(cluster.address());
  RecordPlays(cluster.address(), early, 50);

  // While the campaign commits: the backup holds one moment of the store,
  // between what was stored before it began and what was stored after.
  auto backup = Foundry({"backup", "--coordinator", cluster.address(), "--to", Path("backups")});
  ASSERT_EQ(backup.exit_code, 0) << backup.err << cluster.CoordinatorLog();
  const std::vector<std::string> after = ExportedIds(cluster.address());

  auto restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("restored1")});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  const std::vector<std::string> mid = ExportedIds(Path("restored1"), /*db=*/true);
  // The backup's moment fell inside the campaign: it holds fewer puzzles
  // than the campaign stores. (Whether the campaign still runs once the
  // backup has been copied depends on the machine's speed, not on the
  // backup.)
  EXPECT_LT(mid.size(), kCount) << "the campaign ended before the backup's moment: nothing "
                                   "was tested under writes";
  const auto early_set = AsSet(early), mid_set = AsSet(mid), after_set = AsSet(after);
  EXPECT_EQ(mid_set.size(), mid.size()) << "duplicate ids";
  for (const auto& e : early)
    EXPECT_TRUE(mid_set.count(e)) << e << " stored before the backup is missing";
  for (const auto& m : mid) EXPECT_TRUE(after_set.count(m)) << m << " was never stored";
  // The campaign record and the puzzles come from the same moment: its
  // counter equals what it stored there.
  auto stats = Foundry({"stats", "--db", Path("restored1"), "--json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  auto j = nlohmann::json::parse(stats.out);
  ASSERT_EQ(j["campaigns"].size(), 1u);
  EXPECT_EQ(j["campaigns"][0]["stored"].get<uint64_t>(), mid.size());
  // The plays recorded before the backup are in it, counted once.
  const std::string restored_export = Export(Path("restored1"), true);
  size_t played = 0;
  for (size_t pos = 0; (pos = restored_export.find("\"plays\":{", pos)) != std::string::npos;
       ++pos) {
    ++played;
  }
  EXPECT_GE(played, 50u);

  // Once the campaign ended, a second (incremental) backup restores to the
  // very same answers, plays included.
  ASSERT_EQ(WatchCampaign(cluster.address(), id).exit_code, 0);
  RecordPlays(cluster.address(), after, 20);
  const std::string live = Export(cluster.address(), false);
  backup = Foundry({"backup", "--coordinator", cluster.address(), "--to", Path("backups")});
  ASSERT_EQ(backup.exit_code, 0) << backup.err;
  EXPECT_NE(backup.out.find("backup 2 "), std::string::npos) << backup.out;
  ASSERT_TRUE(cluster.StopAll());
  restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("restored2")});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_EQ(Export(Path("restored2"), true), live);
  // The first backup is still there and still the same.
  restored = Foundry(
      {"restore", "--from", Path("backups"), "--to", Path("restored3"), "--backup-id", "1"});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_EQ(Export(Path("restored3"), true), restored_export);
}

TEST_F(BackupTest, ACampaignRunningAtTheBackupResumesFromTheRestoreWithTheReferenceIds) {
  const auto reference = EmbeddedIds(Path("reference"), kGen);
  ASSERT_EQ(reference.size(), 6000u);
  std::string id;
  {
    LocalCluster cluster(Path("db"), dir_.path(), 2, 1);
    ASSERT_TRUE(cluster.ok());
    id = SubmitCampaign(cluster.address(), kGen);
    ASSERT_TRUE(WaitUntilStored(cluster.address(), id, 1500));
    auto backup = Foundry({"backup", "--coordinator", cluster.address(), "--to", Path("backups")});
    ASSERT_EQ(backup.exit_code, 0) << backup.err;
    // The original store is lost with its machine.
    cluster.coordinator().Signal(SIGKILL);
  }
  auto restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("restored")});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  fs::create_directories(Path("second"));
  LocalCluster cluster(Path("restored"), Path("second"), 2, 1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  const CampaignView resumed = CampaignStatus(cluster.address(), id);
  EXPECT_EQ(resumed.state, "CAMPAIGN_STATE_RUNNING");
  EXPECT_LT(resumed.stored, 6000u);
  auto watched = WatchCampaign(cluster.address(), id);
  ASSERT_EQ(watched.exit_code, 0) << watched.out << watched.err << cluster.CoordinatorLog();
  const auto ids = ExportedIds(cluster.address());
  EXPECT_EQ(ids.size(), 6000u);
  EXPECT_EQ(AsSet(ids), AsSet(reference));
}

TEST_F(BackupTest, ListAndVerifyCatchADamagedBackup) {
  ASSERT_EQ(Foundry({"run", "--family", "secret-number", "--count", "3000", "--db", Path("db")})
                .exit_code,
            0);
  auto b = Foundry({"backup", "--db", Path("db"), "--to", Path("backups")});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ASSERT_EQ(Foundry({"run", "--family", "balance", "--count", "500", "--db", Path("db")}).exit_code,
            0);
  b = Foundry({"backup", "--db", Path("db"), "--to", Path("backups")});
  ASSERT_EQ(b.exit_code, 0) << b.err;

  auto list = Foundry({"backup", "--list", "--to", Path("backups")});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("3,000 puzzles"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("3,500 puzzles"), std::string::npos) << list.out;
  auto verify = Foundry({"backup", "--verify", "--to", Path("backups")});
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_NE(verify.out.find("backup 2 good"), std::string::npos) << verify.out;

  // Flip bytes in the middle of the largest table file.
  fs::path largest;
  for (const auto& e : fs::directory_iterator(Path("backups") + "/shared_checksum")) {
    if (largest.empty() || fs::file_size(e.path()) > fs::file_size(largest)) largest = e.path();
  }
  ASSERT_FALSE(largest.empty());
  {
    std::fstream f(largest, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(largest) / 2));
    f.write("DAMAGE", 6);
  }
  verify = Foundry({"backup", "--verify", "--to", Path("backups")});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.err.find("is damaged"), std::string::npos) << verify.err;
  EXPECT_NE(verify.err.find(largest.filename().string()), std::string::npos) << verify.err;
  // A restore of the damaged backup fails and leaves no directory behind.
  const size_t at = verify.err.find("backup ");
  ASSERT_NE(at, std::string::npos);
  const std::string damaged = verify.err.substr(at + 7, verify.err.find(' ', at + 7) - at - 7);
  auto restored = Foundry(
      {"restore", "--from", Path("backups"), "--to", Path("restored"), "--backup-id", damaged});
  EXPECT_EQ(restored.exit_code, 1);
  EXPECT_FALSE(fs::exists(Path("restored")));
  for (const auto& e : fs::directory_iterator(dir_.path())) {
    EXPECT_EQ(e.path().filename().string().find("restored.restoring"), std::string::npos);
  }
  // Unknown ids and directories are named.
  verify = Foundry({"backup", "--verify", "--to", Path("backups"), "--backup-id", "7"});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.err.find("no backup 7"), std::string::npos) << verify.err;
  list = Foundry({"backup", "--list", "--to", Path("nothing-here")});
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_NE(list.err.find("no backups in"), std::string::npos) << list.err;
}

TEST_F(BackupTest, StoppedStoresAreBackedUpAndRestoresNeverOverwrite) {
  ASSERT_EQ(Foundry({"run", "--family", "secret-number", "--count", "2000", "--db", Path("db")})
                .exit_code,
            0);
  const std::string before = Export(Path("db"), true);

  // A store a coordinator holds is refused, pointing at --coordinator.
  {
    LocalCluster cluster(Path("db"), dir_.path(), 0, 1);
    ASSERT_TRUE(cluster.ok());
    auto held = Foundry({"backup", "--db", Path("db"), "--to", Path("backups")});
    EXPECT_EQ(held.exit_code, 1);
    EXPECT_NE(held.err.find("--coordinator"), std::string::npos) << held.err;
    auto relative = Foundry({"backup", "--coordinator", cluster.address(), "--to", "backups"});
    EXPECT_EQ(relative.exit_code, 1);
    EXPECT_NE(relative.err.find("absolute"), std::string::npos) << relative.err;
    auto inside =
        Foundry({"backup", "--coordinator", cluster.address(), "--to", Path("db") + "/b"});
    EXPECT_EQ(inside.exit_code, 1);
    EXPECT_NE(inside.err.find("inside the store"), std::string::npos) << inside.err;
    ASSERT_TRUE(cluster.StopAll());
  }
  auto b = Foundry({"backup", "--db", Path("db"), "--to", Path("backups")});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  auto restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("copy")});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_EQ(Export(Path("copy"), true), before);
  EXPECT_EQ(fs::status(Path("copy")).permissions() & fs::perms::all, fs::perms::owner_all);

  // Onto an existing store, or any non-empty directory: refused, untouched.
  ASSERT_EQ(
      Foundry({"run", "--family", "balance", "--count", "300", "--db", Path("other")}).exit_code,
      0);
  const std::string other = Export(Path("other"), true);
  restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("other")});
  EXPECT_EQ(restored.exit_code, 1);
  EXPECT_NE(restored.err.find("is not empty"), std::string::npos) << restored.err;
  EXPECT_EQ(Export(Path("other"), true), other);
  // Into an empty directory (a mounted volume): allowed.
  fs::create_directories(Path("empty"));
  restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("empty")});
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_EQ(Export(Path("empty"), true), before);
  // Under a plain file: the user's path to fix, named, and nothing made.
  // (Its status code, FAILED_PRECONDITION, is the unit test's:
  // StoreOpenTest.ARestoreUnderAFileIsRefusedWithItsName.)
  { std::ofstream(Path("plain")) << "not a directory\n"; }
  restored = Foundry({"restore", "--from", Path("backups"), "--to", Path("plain") + "/store"});
  EXPECT_EQ(restored.exit_code, 1);
  EXPECT_NE(restored.err.find("cannot create " + Path("plain") + "/store"), std::string::npos)
      << restored.err;
  EXPECT_FALSE(fs::exists(Path("plain") + "/store"));
  // Backups go only into an empty directory or one of backups.
  b = Foundry({"backup", "--db", Path("db"), "--to", Path("other")});
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.err.find("holds no backups"), std::string::npos) << b.err;
  EXPECT_EQ(Export(Path("other"), true), other);
}

}  // namespace
}  // namespace foundry::testing
