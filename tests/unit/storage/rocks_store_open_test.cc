// Store over RocksDB: opening a directory (schema, foreign data, damage) and
// the lock against a second opener.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <string_view>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "storage/backup.h"
#include "store_fixture.h"

namespace foundry::storage {
namespace {

// The opening tests, their own suite so that the fixture is instantiated
// once per suite.
class StoreOpenTest : public StoreTest {
 protected:
  // Makes DbDir() a directory holding one file, `name`, with `content`.
  void DirectoryWith(std::string_view name, std::string_view content) {
    std::filesystem::create_directory(DbDir());
    std::ofstream(std::filesystem::path(DbDir()) / name) << content;
  }
};

INSTANTIATE_TEST_SUITE_P(SyncWrites, StoreOpenTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Sync" : "NoSync"; });

TEST_P(StoreOpenTest, MissingDirWithoutCreateIsInvalidArgument) {
  StoreOptions o = Options();
  o.create_if_missing = false;
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  // In the user's words: the path, and what is wrong with it.
  EXPECT_EQ(s.status().message(), "no store at " + DbDir() + " (the directory does not exist)");
  EXPECT_FALSE(std::filesystem::exists(DbDir()));
  // An empty existing directory holds no store either.
  std::filesystem::create_directory(DbDir());
  s = Store::Open(DbDir(), o);
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.status().message(), "no store at " + DbDir() + " (the directory holds none yet)");
  EXPECT_TRUE(std::filesystem::is_empty(DbDir()));
}

TEST_P(StoreOpenTest, OpensAnExistingEmptyDirectory) {
  std::filesystem::create_directory(DbDir());
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
}

TEST_P(StoreOpenTest, NewStoreRecordsTheSchemaVersion) {
  { ASSERT_TRUE(OpenOrDie()); }
  RawStore raw(DbDir());
  ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
  std::string value;
  ASSERT_TRUE(raw.db()
                  ->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &value)
                  .ok());
  EXPECT_EQ(value, "5");
}

TEST_P(StoreOpenTest, OtherSchemaVersionIsFailedPreconditionAndChangesNothing) {
  CommitBatch b = Batch(kSn, "c-1", 0, 4);
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->Commit(b).ok());
  }
  auto set_version = [&](const std::string& v, bool with_records = true) {
    RawStore raw(DbDir(), with_records);
    ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
    ASSERT_TRUE(
        raw.db()->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", v).ok());
  };
  set_version("99");
  const auto before = Listing(DbDir());

  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(
      s.status().message(),
      "store at " + DbDir() +
          " has schema version 99; this build reads version 5 (and upgrades 1 "
          "to 4 in place). Open it with a build of schema version 99 or newer; the store was left "
          "unchanged");
  EXPECT_EQ(Listing(DbDir()), before);

  {
    RawStore raw(DbDir());
    ASSERT_TRUE(raw.status().ok());
    std::string value;
    ASSERT_TRUE(
        raw.db()
            ->Get(rocksdb::ReadOptions(), raw.cf(keys::kDefaultCf), "schema_version", &value)
            .ok());
    EXPECT_EQ(value, "99");
  }
  // A version 1 store (the records under their ids) is upgraded.
  testing::MoveRecordsBackToPuzzles(DbDir());
  set_version("1", /*with_records=*/false);
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  for (const Puzzle& p : b.puzzles) EXPECT_TRUE(store->GetPuzzle(p.id()).ok());
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 4}}));
}

TEST_P(StoreOpenTest, UnreadableSchemaVersionIsDataLoss) {
  { ASSERT_TRUE(OpenOrDie()); }
  {
    RawStore raw(DbDir());
    ASSERT_TRUE(raw.status().ok());
    ASSERT_TRUE(
        raw.db()
            ->Put(rocksdb::WriteOptions(), raw.cf(keys::kDefaultCf), "schema_version", "one")
            .ok());
  }
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss);
}

TEST_P(StoreOpenTest, PlainRocksDbIsRefusedAndLeftAlone) {
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, DbDir(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "their-key", "their-value").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("not a Puzzle Foundry store"));
  EXPECT_EQ(Listing(DbDir()), before);

  // Still their database: one column family, their key.
  std::vector<std::string> cfs;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), DbDir(), &cfs).ok());
  EXPECT_EQ(cfs, std::vector<std::string>{"default"});
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), DbDir(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string value;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "their-key", &value).ok());
  EXPECT_FALSE(db->Get(rocksdb::ReadOptions(), "schema_version", &value).ok());
}

TEST_P(StoreOpenTest, DirectoryOfOtherFilesIsRefusedAndLeftAlone) {
  DirectoryWith("notes.txt", "my thesis, draft 7\n");
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(s.status().message(), HasSubstr("not empty"));
  EXPECT_EQ(Listing(DbDir()), before);
}

TEST_P(StoreOpenTest, GarbageCurrentFileIsAClearErrorAndLeftAlone) {
  DirectoryWith("CURRENT", "this is not a manifest name");
  const auto before = Listing(DbDir());
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().code(),
              ::testing::AnyOf(Status::Code::kDataLoss, Status::Code::kFailedPrecondition))
      << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr(DbDir()));
  // The probe takes RocksDB's LOCK file; nothing else appears.
  auto after = Listing(DbDir());
  after.erase("LOCK");
  EXPECT_EQ(after, before);
}

TEST_P(StoreOpenTest, CurrentNamingAMissingManifestIsDataLoss) {
  DirectoryWith("CURRENT", "MANIFEST-000001\n");
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("MANIFEST-000001"));
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / "MANIFEST-000001"));
}

TEST_P(StoreOpenTest, CorruptManifestIsDataLoss) {
  {
    auto store = OpenOrDie();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 3)).ok());
  }
  int corrupted = 0;
  for (const auto& e : std::filesystem::directory_iterator(DbDir())) {
    if (e.path().filename().string().rfind("MANIFEST-", 0) != 0) continue;
    const auto size = e.file_size();
    std::ofstream out(e.path(), std::ios::binary | std::ios::trunc);
    for (uintmax_t i = 0; i < size; ++i) out.put(static_cast<char>(0xA5 ^ (i * 7)));
    ++corrupted;
  }
  ASSERT_GT(corrupted, 0);
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kDataLoss) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr("Corruption"));
}

TEST_P(StoreOpenTest, PathThatIsAFileIsRefused) {
  std::ofstream(DbDir()) << "x";
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition);
}

// A directory that cannot be made (its parent is a file) is the caller's
// error, named with its path, not an internal one.
TEST_P(StoreOpenTest, PathUnderAFileIsRefusedWithItsName) {
  std::ofstream(DbDir()) << "x";
  const std::string under = DbDir() + "/store";
  Result<std::unique_ptr<Store>> s = Store::Open(under, Options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kFailedPrecondition) << s.status().ToString();
  EXPECT_THAT(s.status().message(), HasSubstr(under));
}

// A restore's target under a plain file is the caller's path to fix, as a
// store opened there: FailedPrecondition naming it, nothing left behind.
TEST_P(StoreOpenTest, ARestoreUnderAFileIsRefusedWithItsName) {
  OpenOrDie().reset();
  const std::string backups = tmp_.Sub("backups");
  ASSERT_TRUE(BackupStoppedStore(DbDir(), backups).ok());
  const std::string file = tmp_.Sub("plain");
  std::ofstream(file) << "x";
  Result<BackupSummary> r = RestoreBackup(backups, file + "/store", std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition) << r.status().ToString();
  EXPECT_THAT(r.status().message(), HasSubstr(file + "/store"));
}

// A creation interrupted after RocksDB made its files but before the schema
// version was stored leaves our marker: the next Open finishes the job.
TEST_P(StoreOpenTest, InterruptedCreationIsFinished) {
  DirectoryWith(kInitMarkerFile, "");
  {
    rocksdb::DBOptions o;
    o.create_if_missing = true;
    o.create_missing_column_families = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
        {"default", rocksdb::ColumnFamilyOptions()}, {"puzzles", rocksdb::ColumnFamilyOptions()}};
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, DbDir(), cfs, &handles, &raw).ok());
    for (auto* h : handles) ASSERT_TRUE(raw->DestroyColumnFamilyHandle(h).ok());
    ASSERT_TRUE(raw->Close().ok());
    delete raw;
  }
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
  ASSERT_TRUE(store->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  store.reset();
  store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 2}}));
}

TEST_P(StoreOpenTest, MarkerOnlyDirectoryIsInitialised) {
  DirectoryWith(kInitMarkerFile, "");
  auto store = OpenOrDie();
  ASSERT_TRUE(store);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(DbDir()) / kInitMarkerFile));
}

// ---------------------------------------------------------------------------
// Locking

TEST_P(StoreOpenTest, SecondOpenWhileOpenIsUnavailable) {
  auto first = OpenOrDie();
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->Commit(Batch(kSn, "c-1", 0, 2)).ok());
  Result<std::unique_ptr<Store>> second = Store::Open(DbDir(), Options());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kUnavailable) << second.status().ToString();
  EXPECT_THAT(second.status().message(), HasSubstr("the store at " + DbDir() + " is already open"));
  // The first one is unharmed.
  EXPECT_EQ(first->PuzzleCounts(), (std::map<std::string, uint64_t>{{kSn, 2}}));
  first.reset();
  EXPECT_TRUE(OpenOrDie());
}

// Another process holding RocksDB's lock (an fcntl lock on LOCK, as RocksDB
// takes it): the child only locks the file and waits, so it needs nothing
// of this process's threads.
TEST_P(StoreOpenTest, LockHeldByAnotherProcessIsUnavailable) {
  { ASSERT_TRUE(OpenOrDie()); }
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const std::string lock_path = DbDir() + "/LOCK";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int fd = ::open(lock_path.c_str(), O_RDWR);
    struct flock fl = {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    char ok = (fd >= 0 && ::fcntl(fd, F_SETLK, &fl) == 0) ? 'y' : 'n';
    (void)!::write(ready[1], &ok, 1);
    char c;
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ASSERT_EQ(ok, 'y');
  Result<std::unique_ptr<Store>> s = Store::Open(DbDir(), Options());
  EXPECT_EQ(s.status().code(), Status::Code::kUnavailable) << s.status().ToString();
  EXPECT_THAT(s.status().message(),
              HasSubstr("another process has the store at " + DbDir() + " open"));
  (void)!::write(release[1], "x", 1);
  int wstatus = 0;
  ::waitpid(child, &wstatus, 0);
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
  EXPECT_TRUE(OpenOrDie());
}

// ---------------------------------------------------------------------------
// Concurrency: readers run while a writer commits; the counters stay exact.

}  // namespace
}  // namespace foundry::storage
