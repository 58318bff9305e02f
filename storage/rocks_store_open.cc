// RocksStore, part 1: opening and closing a store (the directory checks, the
// read-only probe, the RocksDB options). Key layouts: keys.h. Locking:
// rocks_store.h.
#include "storage/rocks_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <sys/statvfs.h>

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>

#include "storage/keys.h"
#include "storage/rocks_options.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

namespace fs = std::filesystem;
using foundry::v1::Campaign;
using foundry::v1::Puzzle;

std::optional<uint64_t> FreeBytes(const std::string& dir) {
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) != 0) return std::nullopt;
  return static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
}

Status FromRocks(const rocksdb::Status& s, const std::string& dir, std::string_view what) {
  if (s.ok()) return Status::Ok();
  const std::string msg = std::string(what) + " (store at " + dir + "): RocksDB: " + s.ToString();
  if (s.IsCorruption()) return Status::DataLoss(msg);
  if (s.IsNoSpace()) {
    return Status::ResourceExhausted(std::string(what) + " (store at " + dir +
                                     "): the disk is full (RocksDB: " + s.ToString() + ")");
  }
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut() || s.IsShutdownInProgress()) {
    return Status::Unavailable(msg);
  }
  if (s.IsInvalidArgument() || s.IsNotSupported()) return Status::FailedPrecondition(msg);
  return Status::Internal(msg);
}

Status FromErrorCode(const std::error_code& ec, std::string_view what, const std::string& path) {
  std::string msg = std::string(what) + " " + path + ": " + ec.message();
  if (ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted) {
    return Status::PermissionDenied(std::move(msg));
  }
  if (ec == std::errc::no_space_on_device) return Status::ResourceExhausted(std::move(msg));
  // A path that cannot hold a store (its parent a file, a read-only file
  // system): the caller's to fix, as a path that is a file.
  for (std::errc e : {std::errc::no_such_file_or_directory, std::errc::not_a_directory,
                      std::errc::read_only_file_system, std::errc::filename_too_long}) {
    if (ec == e) return Status::FailedPrecondition(std::move(msg));
  }
  return Status::Internal(std::move(msg));
}

namespace {

// Errors

std::string SchemaMismatchMessage(const std::string& dir, std::string_view found) {
  // The first sentence is what every build has said; the second, what to do.
  return "store at " + dir + " has schema version " + std::string(found) +
         "; this build reads version " + std::to_string(Store::kSchemaVersion) +
         " (and upgrades 1 to " + std::to_string(Store::kSchemaVersion - 1) +
         " in place). Open it with a build of schema version " + std::string(found) +
         " or newer; the store was left unchanged";
}

bool IsLockError(const rocksdb::Status& s) {
  if (!s.IsIOError()) return false;
  std::string text = s.ToString();
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text.find("lock") != std::string::npos;
}

// As FromRocks, for the steps of Open on a directory that holds a RocksDB
// database (it has a CURRENT file): a lock failure means that another process
// (or another Store in this one) has the store open, and a file that the
// database's own metadata names but that is missing means it is damaged.
Status FromRocksOpen(const rocksdb::Status& s, const std::string& dir, std::string_view what,
                     bool existing = true) {
  if (IsLockError(s)) {
    // RocksDB keeps its own table of the locks this process holds and says
    // so ("lock hold by current process") before asking the kernel.
    if (s.ToString().find("current process") != std::string::npos) {
      return Status::Unavailable("the store at " + dir +
                                 " is already open in this process (RocksDB: " + s.ToString() +
                                 ")");
    }
    return Status::Unavailable("another process has the store at " + dir +
                               " open (RocksDB: " + s.ToString() + ")");
  }
  if (existing && (s.IsPathNotFound() || s.IsNotFound())) {
    return Status::DataLoss(std::string(what) + " (store at " + dir +
                            "): a file of the database is missing: RocksDB: " + s.ToString());
  }
  return FromRocks(s, dir, what);
}

// The free space below which Open refuses a store directory.
constexpr uint64_t kMinFreeBytesToOpen = 4u << 20;

// Compactions run in the default Env's low-priority pool, shared by every
// store of the process; its threads get the lowest CPU priority (nice 19) the
// first time a store opens, so on a machine the store shares with generation
// a large merge takes idle CPU instead of the commit path's
// (docs/scale.md, "Compactions at low CPU priority"). Flushes keep normal
// priority: writes wait on them. Best effort: where the call is not
// supported the priority stays as it was.
void LowerCompactionPriorityOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    rocksdb::Env::Default()
        ->LowerThreadPoolCPUPriority(rocksdb::Env::Priority::LOW, rocksdb::CpuPriority::kLow)
        .PermitUncheckedError();
  });
}

Status CheckRoomToOpen(const std::string& dir) {
  const std::optional<uint64_t> free = FreeBytes(dir);
  if (!free || *free >= kMinFreeBytesToOpen) return Status::Ok();
  const uint64_t free_bytes = *free;
  return Status::ResourceExhausted(fmt::format(
      "cannot open the store at {}: the disk is full ({} KiB free; opening needs {} MiB for "
      "RocksDB's manifest and log). Free some space; nothing in the store was changed",
      dir, free_bytes >> 10, kMinFreeBytesToOpen >> 20));
}

// Options

// A logger that drops everything: the read-only probe of a directory must not
// create or rotate LOG files in what may be someone else's database.
class NullLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

// The directory before RocksDB opens it

std::string PathIn(const std::string& dir, std::string_view name) {
  return (fs::path(dir) / fs::path(std::string(name))).string();
}

// fsync of a file or directory; false on failure.
bool SyncPath(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// Writes the init marker durably (file and directory entry).
Status WriteInitMarker(const std::string& dir) {
  const std::string path = PathIn(dir, kInitMarkerFile);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return FromErrorCode(std::error_code(errno, std::generic_category()), "cannot create", path);
  }
  static constexpr std::string_view kText =
      "A Puzzle Foundry store is being created here; this file goes away when it is ready.\n";
  const bool ok = ::write(fd, kText.data(), kText.size()) == static_cast<ssize_t>(kText.size()) &&
                  ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok)
    return FromErrorCode(std::error_code(err, std::generic_category()), "cannot write", path);
  if (!SyncPath(dir, /*directory=*/true)) {
    return FromErrorCode(std::error_code(errno, std::generic_category()), "cannot sync", dir);
  }
  return Status::Ok();
}

// Creates a database in `dir` (no CURRENT file yet) with the column families
// of `descriptors`, the default one first, and opens it. DB::Open with
// create_missing_column_families creates them one at a time and rewrites the
// options file after each (ten files, each synced with its directory);
// CreateColumnFamilies writes it once for all (docs/benchmarks.md,
// "twenty-seventh session"). A crash in between leaves the init marker and a
// database missing column families, which the next Open finishes creating
// (kUnfinishedInit).
rocksdb::Status CreateDb(const rocksdb::DBOptions& db_options, const std::string& dir,
                         const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
                         std::vector<rocksdb::ColumnFamilyHandle*>* handles, rocksdb::DB** out) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, {descriptors.front()}, handles, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::DB> db(raw);
  std::vector<rocksdb::ColumnFamilyHandle*> created;  // those made, even on failure
  s = db->CreateColumnFamilies({descriptors.begin() + 1, descriptors.end()}, &created);
  handles->insert(handles->end(), created.begin(), created.end());
  if (!s.ok()) {
    for (rocksdb::ColumnFamilyHandle* h : *handles) {
      db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    }
    handles->clear();
    db->Close().PermitUncheckedError();
    return s;
  }
  *out = db.release();
  return s;
}

Status RemoveInitMarker(const std::string& dir) {
  const std::string path = PathIn(dir, kInitMarkerFile);
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) return FromErrorCode(ec, "cannot remove", path);
  if (!SyncPath(dir, /*directory=*/true)) {
    return FromErrorCode(std::error_code(errno, std::generic_category()), "cannot sync", dir);
  }
  return Status::Ok();
}

// What the read-only probe of an existing RocksDB directory found.
enum class ProbeResult {
  kOurs,            // our schema version and column families: open it
  kUpgrade,         // schema version 1 to 4: open it, adding the missing column families
  kUnfinishedInit,  // our init marker and no schema key yet: finish creating it
};

// Looks at an existing RocksDB database in `dir` without writing to it: holds
// RocksDB's LOCK while it reads (so it never reads a database another process
// is writing), lists the column families and reads schema_version through a
// read-only instance of the default column family.
Result<ProbeResult> ProbeExisting(const std::string& dir, bool has_marker) {
  rocksdb::Env* env = rocksdb::Env::Default();
  rocksdb::FileLock* lock = nullptr;
  rocksdb::Status s = env->LockFile(PathIn(dir, "LOCK"), &lock);
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot lock the store");
  struct Unlock {
    rocksdb::Env* env;
    rocksdb::FileLock* lock;
    ~Unlock() { env->UnlockFile(lock).PermitUncheckedError(); }
  } unlock{env, lock};

  rocksdb::Options options;
  options.create_if_missing = false;
  options.info_log = std::make_shared<NullLogger>();

  std::vector<std::string> names;
  s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(options), dir, &names);
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot read the store's column families");

  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot open the store");
  std::unique_ptr<rocksdb::DB> db(raw);

  std::string value;
  s = db->Get(rocksdb::ReadOptions(),
              rocksdb::Slice(keys::kSchemaVersionKey.data(), keys::kSchemaVersionKey.size()),
              &value);
  db->Close().PermitUncheckedError();
  db.reset();

  std::set<std::string_view> ours(keys::kAllCfs.begin(), keys::kAllCfs.end());
  if (s.IsNotFound()) {
    if (!has_marker) {
      return Status::FailedPrecondition(
          dir +
          " holds a RocksDB database without a schema_version key: it is not a Puzzle "
          "Foundry store; refusing to open or initialise it");
    }
    // Our own creation was interrupted before schema_version was stored;
    // nothing but our column families can be in it.
    for (const std::string& name : names) {
      if (ours.count(name) == 0) {
        return Status::FailedPrecondition("store at " + dir +
                                          " (unfinished creation) has unknown "
                                          "column family \"" +
                                          name + "\"; refusing to open it");
      }
    }
    return ProbeResult::kUnfinishedInit;
  }
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot read the schema version");

  std::optional<int> version = keys::DecodeSchemaVersion(value);
  if (!version) {
    return Status::DataLoss("store at " + dir + " has an unreadable schema version \"" + value +
                            "\"");
  }
  if (*version < 1 || *version > Store::kSchemaVersion) {
    return Status::FailedPrecondition(SchemaMismatchMessage(dir, value));
  }
  std::set<std::string_view> present(names.begin(), names.end());
  const auto added_in_v2 = [](std::string_view name) {
    return std::find(keys::kAddedInV2.begin(), keys::kAddedInV2.end(), name) !=
           keys::kAddedInV2.end();
  };
  const auto added_in_v4 = [](std::string_view name) {
    return std::find(keys::kAddedInV4.begin(), keys::kAddedInV4.end(), name) !=
           keys::kAddedInV4.end();
  };
  const auto added_in_v5 = [](std::string_view name) {
    return std::find(keys::kAddedInV5.begin(), keys::kAddedInV5.end(), name) !=
           keys::kAddedInV5.end();
  };
  for (std::string_view name : keys::kAllCfs) {
    if (present.count(name) == 0 && !(*version == 1 && added_in_v2(name)) &&
        !(*version < 4 && added_in_v4(name)) && !(*version < 5 && added_in_v5(name))) {
      return Status::DataLoss("store at " + dir + " lacks column family \"" + std::string(name) +
                              "\" although its schema version is " + value);
    }
  }
  for (const std::string& name : names) {
    if (ours.count(name) == 0) {
      return Status::FailedPrecondition("store at " + dir + " has unknown column family \"" + name +
                                        "\"; this build does not know it");
    }
  }
  return *version < Store::kSchemaVersion ? ProbeResult::kUpgrade : ProbeResult::kOurs;
}

// Whether `dir` (an existing directory) holds no entries.
Result<bool> IsEmptyDir(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return FromErrorCode(ec, "cannot list", dir);
  return it == fs::directory_iterator();
}

}  // namespace

// Open and close

Result<std::unique_ptr<Store>> Store::Open(const std::string& dir, const StoreOptions& options) {
  Result<std::unique_ptr<RocksStore>> store = RocksStore::Open(dir, options);
  if (!store.ok()) return store.status();
  return std::unique_ptr<Store>(std::move(store).value());
}

Result<std::unique_ptr<RocksStore>> RocksStore::Open(const std::string& dir,
                                                     const StoreOptions& options) {
  if (dir.empty()) return Status::InvalidArgument("the store directory is an empty string");

  // 1. Decide, from the directory alone, between "create a store" and "open
  //    the existing one". Only an absent or empty directory (or one holding
  //    our init marker) is ever initialised.
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    return FromErrorCode(ec, "cannot stat", dir);
  bool fresh = false;
  bool upgrade = false;
  bool has_marker = false;
  bool has_current = false;
  if (!fs::exists(st)) {
    if (!options.create_if_missing) {
      return Status::InvalidArgument("no store at " + dir + " (the directory does not exist)");
    }
    fs::create_directories(dir, ec);
    if (ec) return FromErrorCode(ec, "cannot create", dir);
    // Owner-only: the store holds every solution and every play.
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) return FromErrorCode(ec, "cannot restrict the permissions of", dir);
    fresh = true;
  } else if (!fs::is_directory(st)) {
    return Status::FailedPrecondition(dir + " is not a directory");
  } else {
    has_marker = fs::exists(PathIn(dir, kInitMarkerFile), ec);
    has_current = fs::exists(PathIn(dir, "CURRENT"), ec);
    if (has_current) {
      Result<ProbeResult> probe = ProbeExisting(dir, has_marker);
      if (!probe.ok()) return probe.status();
      fresh = *probe == ProbeResult::kUnfinishedInit;
      upgrade = *probe == ProbeResult::kUpgrade;
    } else {
      Result<bool> empty = IsEmptyDir(dir);
      if (!empty.ok()) return empty.status();
      if (!*empty && !has_marker) {
        return Status::FailedPrecondition(dir +
                                          " is not empty and holds no Puzzle Foundry store; "
                                          "refusing to create a store over its files");
      }
      fresh = true;
    }
    if (fresh && !options.create_if_missing) {
      return Status::InvalidArgument("no store at " + dir + " (the directory holds none yet)");
    }
  }

  // 2. A new store: mark the directory first, so that a crash before
  //    schema_version is stored leaves a directory we recognise as ours.
  if (fresh && !has_marker) {
    FOUNDRY_RETURN_IF_ERROR(WriteInitMarker(dir));
    has_marker = true;
  }

  // 3. The read-write open, with every column family of this schema. It
  //    writes a little (a manifest, an options file, a new log); Debian's
  //    RocksDB 7.8 aborts the process when those writes find no space at all,
  //    so a disk with almost nothing free is refused here, with a reason.
  //    Every column family of this schema is opened.
  FOUNDRY_RETURN_IF_ERROR(CheckRoomToOpen(dir));
  LowerCompactionPriorityOnce();
  rocksdb::DBOptions db_options = StoreDbOptions(/*create=*/fresh, options);
  // Upgrading: the probe checked that only column families added since the
  // store's version are missing.
  if (upgrade) db_options.create_missing_column_families = true;
  auto write_stop = std::make_shared<WriteStop>();
  db_options.listeners.push_back(write_stop);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = StoreColumnFamilies(options);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = has_current ? rocksdb::DB::Open(db_options, dir, descriptors, &handles, &raw)
                                  : CreateDb(db_options, dir, descriptors, &handles, &raw);
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot open the store", /*existing=*/has_current);
  std::unique_ptr<RocksStore> store(new RocksStore(
      dir, options, std::move(write_stop), std::unique_ptr<rocksdb::DB>(raw), std::move(handles)));

  // 4. Schema version: write it into a new store; re-check it in an existing
  //    one (the probe ran before we held the lock).
  rocksdb::DB* db = store->db_.get();
  const rocksdb::Slice meta_key = ToSlice(keys::kSchemaVersionKey);
  std::string value;
  s = db->Get(rocksdb::ReadOptions(), store->cf(kDefault), meta_key, &value);
  if (s.IsNotFound() && fresh) {
    rocksdb::WriteOptions sync;
    sync.sync = true;
    s = db->Put(sync, store->cf(kDefault), meta_key,
                keys::EncodeSchemaVersion(Store::kSchemaVersion));
    if (!s.ok()) return FromRocks(s, dir, "cannot write the schema version");
  } else if (s.IsNotFound()) {
    return Status::FailedPrecondition(dir +
                                      " holds no schema_version key: it is not a Puzzle "
                                      "Foundry store");
  } else if (!s.ok()) {
    return FromRocks(s, dir, "cannot read the schema version");
  } else {
    const std::optional<int> version = keys::DecodeSchemaVersion(value);
    if (!version || *version < 1 || *version > Store::kSchemaVersion) {
      return Status::FailedPrecondition(SchemaMismatchMessage(dir, value));
    }
    if (*version == 1) FOUNDRY_RETURN_IF_ERROR(store->UpgradeFromVersion1());
    if (*version <= 2) FOUNDRY_RETURN_IF_ERROR(store->UpgradeFromVersion2());
    if (*version <= 3) FOUNDRY_RETURN_IF_ERROR(store->UpgradeFromVersion3());
    FOUNDRY_RETURN_IF_ERROR(store->UpgradeToVersion5(std::max(*version, 4)));
  }
  if (has_marker) FOUNDRY_RETURN_IF_ERROR(RemoveInitMarker(dir));

  // 5. The draw groups' counters: O(groups), whatever the store's size;
  //    the next record seq: one seek.
  FOUNDRY_RETURN_IF_ERROR(store->LoadDrawGroups());
  s = store->records_.Load();
  if (!s.ok()) return FromRocks(s, dir, "cannot read the last record");
  return store;
}

RocksStore::RocksStore(std::string dir, const StoreOptions& options,
                       std::shared_ptr<WriteStop> write_stop, std::unique_ptr<rocksdb::DB> db,
                       std::vector<rocksdb::ColumnFamilyHandle*> handles)
    : dir_(std::move(dir)),
      sync_writes_(options.sync_writes),
      min_free_bytes_(options.min_free_bytes),
      write_stop_(std::move(write_stop)),
      db_(std::move(db)),
      handles_(std::move(handles)),
      records_(db_.get(), handles_[kPuzzles], handles_[kRecords]) {}

RocksStore::~RocksStore() {
  // A clean close leaves nothing to replay: the next open skips reading up
  // to max_wal_bytes of logs back into memtables (docs/scale.md). If the
  // flush fails, the logs still hold every write and the next open replays
  // them.
  db_->Flush(rocksdb::FlushOptions(), handles_).PermitUncheckedError();
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
  }
  handles_.clear();
  // Close() reports a failure to sync the last writes; there is no caller to
  // tell, and the WAL still holds every committed write.
  db_->Close().PermitUncheckedError();
}

}  // namespace foundry::storage
