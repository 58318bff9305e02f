// RocksStore: Store on RocksDB. Key layouts: keys.h. Locking: rocks_store.h.
#include "storage/rocks_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdarg>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>
#include <unordered_set>
#include <utility>

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/snapshot.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

namespace fs = std::filesystem;
using foundry::v1::Campaign;
using foundry::v1::Puzzle;

Status FromRocks(const rocksdb::Status& s, const std::string& dir, std::string_view what) {
  if (s.ok()) return Status::Ok();
  const std::string msg =
      std::string(what) + " (store at " + dir + "): RocksDB: " + s.ToString();
  if (s.IsCorruption()) return Status::DataLoss(msg);
  if (s.IsNoSpace()) return Status::ResourceExhausted(msg);
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut() || s.IsShutdownInProgress()) {
    return Status::Unavailable(msg);
  }
  if (s.IsInvalidArgument() || s.IsNotSupported()) return Status::FailedPrecondition(msg);
  return Status::Internal(msg);
}

namespace {

// ---------------------------------------------------------------------------
// Errors

std::string SchemaMismatchMessage(const std::string& dir, std::string_view found) {
  return "store at " + dir + " has schema version " + std::string(found) +
         "; this build reads version " + std::to_string(Store::kSchemaVersion);
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
      return Status::Unavailable("the store at " + dir + " is already open in this process "
                                 "(RocksDB: " + s.ToString() + ")");
    }
    return Status::Unavailable("another process has the store at " + dir + " open (RocksDB: " +
                               s.ToString() + ")");
  }
  if (existing && (s.IsPathNotFound() || s.IsNotFound())) {
    return Status::DataLoss(std::string(what) + " (store at " + dir +
                            "): a file of the database is missing: RocksDB: " + s.ToString());
  }
  return FromRocks(s, dir, what);
}

Status FromErrorCode(const std::error_code& ec, std::string_view what, const std::string& path) {
  std::string msg = std::string(what) + " " + path + ": " + ec.message();
  if (ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted) {
    return Status::PermissionDenied(std::move(msg));
  }
  if (ec == std::errc::no_space_on_device) return Status::ResourceExhausted(std::move(msg));
  return Status::Internal(std::move(msg));
}

// ---------------------------------------------------------------------------
// Options

// A logger that drops everything: the read-only probe of a directory must not
// create or rotate LOG files in what may be someone else's database.
class NullLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

// LZ4 when this RocksDB build has it (Debian's does), else none: puzzle JSON
// compresses well and LZ4 costs little CPU on a write-heavy store.
rocksdb::CompressionType PickCompression() {
  for (rocksdb::CompressionType type : rocksdb::GetSupportedCompressions()) {
    if (type == rocksdb::kLZ4Compression) return type;
  }
  return rocksdb::kNoCompression;
}

rocksdb::DBOptions MakeDbOptions(bool create) {
  rocksdb::DBOptions db;
  db.create_if_missing = create;
  db.create_missing_column_families = create;
  // Existing stores must hold exactly our column families (checked before
  // the read-write open), so a missing one is never created silently.
  db.paranoid_checks = true;
  // Memtables of all column families together; beyond this RocksDB flushes
  // the largest. Bounds memory whatever the per-CF sizes below.
  db.db_write_buffer_size = 256u << 20;
  // Smooth out write-back instead of large bursts at file close.
  db.bytes_per_sync = 1u << 20;
  // Diagnostic LOG files in the store directory: keep a few.
  db.keep_log_file_num = 5;
  db.max_log_file_size = 16u << 20;
  // The WAL is on (the default; never set WriteOptions::disableWAL): a
  // Commit that returned survives a process crash.
  // Tickers only (write stall time, block cache hits and misses, for
  // Stats()): no histograms or timers, so the cost is a few relaxed atomic
  // increments per operation.
  db.statistics = rocksdb::CreateDBStatistics();
  db.statistics->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
  return db;
}

// One column family's options. `write_buffer` is its memtable size; `bloom`
// adds a whole-key Bloom filter (10 bits/key, ~1% false positives) for
// column families read by point lookups.
rocksdb::ColumnFamilyOptions MakeCfOptions(size_t write_buffer, bool bloom,
                                           const std::shared_ptr<rocksdb::Cache>& cache,
                                           rocksdb::CompressionType compression) {
  rocksdb::ColumnFamilyOptions cf;
  cf.write_buffer_size = write_buffer;
  cf.max_write_buffer_number = 3;  // keep accepting writes while one flushes
  cf.compression = compression;
  // Level sizes follow the data: lower space amplification as the store grows.
  cf.level_compaction_dynamic_level_bytes = true;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  if (bloom) table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

std::vector<rocksdb::ColumnFamilyDescriptor> MakeCfDescriptors() {
  // One block cache shared by the column families of the store.
  std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(64u << 20);
  const rocksdb::CompressionType compression = PickCompression();
  constexpr size_t kMiB = 1u << 20;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (std::string_view name : keys::kAllCfs) {
    rocksdb::ColumnFamilyOptions cf;
    if (name == keys::kPuzzlesCf) {
      // The bulk of the data, and the target of dedup's MultiGet of mostly
      // absent ids: a large memtable and a Bloom filter.
      cf = MakeCfOptions(64 * kMiB, /*bloom=*/true, cache, compression);
    } else if (name == keys::kCampaignMembersCf) {
      // Written as often as puzzles (small entries); Commit checks members
      // for existence by point lookup.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/true, cache, compression);
    } else if (name == keys::kByFamilyCf || name == keys::kByScoreCf || name == keys::kByCreatedCf) {
      // Written as often as puzzles; read by range scans only.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/false, cache, compression);
    } else if (name == keys::kPlaysCf) {
      cf = MakeCfOptions(16 * kMiB, /*bloom=*/true, cache, compression);
      cf.merge_operator = NewPlayCountsMergeOperator();
    } else {
      // default (the meta key) and campaigns: a handful of small records.
      cf = MakeCfOptions(4 * kMiB, /*bloom=*/false, cache, compression);
    }
    cfs.emplace_back(std::string(name), cf);
  }
  return cfs;
}

// ---------------------------------------------------------------------------
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
  if (!ok) return FromErrorCode(std::error_code(err, std::generic_category()), "cannot write", path);
  if (!SyncPath(dir, /*directory=*/true)) {
    return FromErrorCode(std::error_code(errno, std::generic_category()), "cannot sync", dir);
  }
  return Status::Ok();
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
  kVersion1,        // schema version 1: open it, adding the v2 column families
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
  s = db->Get(rocksdb::ReadOptions(), rocksdb::Slice(keys::kSchemaVersionKey.data(),
                                                     keys::kSchemaVersionKey.size()),
              &value);
  db->Close().PermitUncheckedError();
  db.reset();

  std::set<std::string_view> ours(keys::kAllCfs.begin(), keys::kAllCfs.end());
  if (s.IsNotFound()) {
    if (!has_marker) {
      return Status::FailedPrecondition(
          dir + " holds a RocksDB database without a schema_version key: it is not a Puzzle "
                "Foundry store; refusing to open or initialise it");
    }
    // Our own creation was interrupted before schema_version was stored;
    // nothing but our column families can be in it.
    for (const std::string& name : names) {
      if (ours.count(name) == 0) {
        return Status::FailedPrecondition("store at " + dir + " (unfinished creation) has unknown "
                                          "column family \"" + name + "\"; refusing to open it");
      }
    }
    return ProbeResult::kUnfinishedInit;
  }
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot read the schema version");

  std::optional<int> version = keys::DecodeSchemaVersion(value);
  if (!version) {
    return Status::DataLoss("store at " + dir + " has an unreadable schema version \"" + value + "\"");
  }
  if (*version != Store::kSchemaVersion && *version != 1) {
    return Status::FailedPrecondition(SchemaMismatchMessage(dir, value));
  }
  std::set<std::string_view> present(names.begin(), names.end());
  const auto added_in_v2 = [](std::string_view name) {
    return std::find(keys::kAddedInV2.begin(), keys::kAddedInV2.end(), name) != keys::kAddedInV2.end();
  };
  for (std::string_view name : keys::kAllCfs) {
    if (present.count(name) == 0 && !(*version == 1 && added_in_v2(name))) {
      return Status::DataLoss("store at " + dir + " lacks column family \"" + std::string(name) +
                              "\" although its schema version is " + value);
    }
  }
  for (const std::string& name : names) {
    if (ours.count(name) == 0) {
      return Status::FailedPrecondition("store at " + dir + " has unknown column family \"" +
                                        name + "\"; this build does not know it");
    }
  }
  return *version == 1 ? ProbeResult::kVersion1 : ProbeResult::kOurs;
}

// Whether `dir` (an existing directory) holds no entries.
Result<bool> IsEmptyDir(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return FromErrorCode(ec, "cannot list", dir);
  return it == fs::directory_iterator();
}

}  // namespace

// ---------------------------------------------------------------------------
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
  if (ec && ec != std::errc::no_such_file_or_directory) return FromErrorCode(ec, "cannot stat", dir);
  bool fresh = false;
  bool upgrade = false;
  bool has_marker = false;
  bool has_current = false;
  if (!fs::exists(st)) {
    if (!options.create_if_missing) {
      return Status::InvalidArgument("no store at " + dir +
                                     ": the directory does not exist and create_if_missing is false");
    }
    fs::create_directories(dir, ec);
    if (ec) return FromErrorCode(ec, "cannot create", dir);
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
      upgrade = *probe == ProbeResult::kVersion1;
    } else {
      Result<bool> empty = IsEmptyDir(dir);
      if (!empty.ok()) return empty.status();
      if (!*empty && !has_marker) {
        return Status::FailedPrecondition(dir + " is not empty and holds no Puzzle Foundry store; "
                                                "refusing to create a store over its files");
      }
      fresh = true;
    }
    if (fresh && !options.create_if_missing) {
      return Status::InvalidArgument("no store at " + dir + " and create_if_missing is false");
    }
  }

  // 2. A new store: mark the directory first, so that a crash before
  //    schema_version is stored leaves a directory we recognise as ours.
  if (fresh && !has_marker) {
    FOUNDRY_RETURN_IF_ERROR(WriteInitMarker(dir));
    has_marker = true;
  }

  // 3. The read-write open, with every column family of this schema.
  rocksdb::DBOptions db_options = MakeDbOptions(/*create=*/fresh);
  // Upgrading: the probe checked that only the v2 column families are missing.
  if (upgrade) db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = MakeCfDescriptors();
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, descriptors, &handles, &raw);
  if (!s.ok()) return FromRocksOpen(s, dir, "cannot open the store", /*existing=*/has_current);
  std::unique_ptr<RocksStore> store(
      new RocksStore(dir, options.sync_writes, std::unique_ptr<rocksdb::DB>(raw), std::move(handles)));

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
    return Status::FailedPrecondition(dir + " holds no schema_version key: it is not a Puzzle "
                                            "Foundry store");
  } else if (!s.ok()) {
    return FromRocks(s, dir, "cannot read the schema version");
  } else if (keys::DecodeSchemaVersion(value) == 1) {
    FOUNDRY_RETURN_IF_ERROR(store->UpgradeFromVersion1());
  } else if (keys::DecodeSchemaVersion(value) != Store::kSchemaVersion) {
    return Status::FailedPrecondition(SchemaMismatchMessage(dir, value));
  }
  if (has_marker) FOUNDRY_RETURN_IF_ERROR(RemoveInitMarker(dir));

  // 5. The in-memory catalog (and per-family counts) from by_score.
  FOUNDRY_RETURN_IF_ERROR(store->LoadCatalog());
  return store;
}

RocksStore::RocksStore(std::string dir, bool sync_writes, std::unique_ptr<rocksdb::DB> db,
                       std::vector<rocksdb::ColumnFamilyHandle*> handles)
    : dir_(std::move(dir)), sync_writes_(sync_writes), db_(std::move(db)), handles_(std::move(handles)) {}

RocksStore::~RocksStore() {
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
  }
  handles_.clear();
  // Close() reports a failure to sync the last writes; there is no caller to
  // tell, and the WAL still holds every committed write.
  db_->Close().PermitUncheckedError();
}

Status RocksStore::LoadCatalog() {
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;  // one pass over the index; keep the cache for lookups
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kByScore)));
  std::vector<PuzzleCatalog::Fact> facts;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::optional<keys::ByScoreParts> key = keys::ParseByScoreKey(it->key().ToStringView());
    std::optional<keys::CatalogValue> value = keys::DecodeCatalogValue(it->value().ToStringView());
    if (!key || !value) {
      return Status::DataLoss("store at " + dir_ + " has a malformed by_score entry (" +
                              it->key().ToString(/*hex=*/true) + ")");
    }
    // The views point into the iterator's current entry: add before Next().
    facts.push_back({key->family, key->id, value->level, key->score, value->created_unix_ms,
                     value->campaign_id});
    catalog_.Add(facts);
    facts.clear();
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "cannot load the catalog");
  return Status::Ok();
}

Status RocksStore::UpgradeFromVersion1() {
  // Fill by_score and by_created from the puzzles, a batch at a time. Puts
  // are idempotent, and schema_version turns 2 only at the end, so a crash
  // anywhere here just means the next Open does it again.
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kPuzzles)));
  rocksdb::WriteBatch wb;
  Puzzle p;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!p.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      return Status::DataLoss("store at " + dir_ + ": puzzle " + it->key().ToString() +
                              " has an unreadable record");
    }
    rocksdb::Status s = wb.Put(cf(kByScore), ByScoreKeyOf(p), CatalogValueOf(p));
    if (s.ok()) s = wb.Put(cf(kByCreated), keys::ByCreatedKey(p.created_unix_ms(), p.id()), "");
    if (s.ok() && wb.Count() >= 8192) {
      s = db_->Write(rocksdb::WriteOptions(), &wb);
      wb.Clear();
    }
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 2: cannot write the new indexes");
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "upgrade to schema 2: cannot read puzzles");
  rocksdb::WriteOptions sync;
  sync.sync = true;
  rocksdb::Status s = db_->Write(sync, &wb);
  if (s.ok()) {
    s = db_->Put(sync, cf(kDefault), ToSlice(keys::kSchemaVersionKey),
                 keys::EncodeSchemaVersion(Store::kSchemaVersion));
  }
  return FromRocks(s, dir_, "upgrade to schema 2");
}

std::string RocksStore::ByScoreKeyOf(const Puzzle& p) {
  return keys::ByScoreKey(p.family(), p.difficulty().score(), p.id());
}

std::string RocksStore::CatalogValueOf(const Puzzle& p) {
  return keys::EncodeCatalogValue(p.difficulty().level(), p.created_unix_ms(), p.campaign_id());
}

// ---------------------------------------------------------------------------
// Puzzles

Result<std::vector<bool>> RocksStore::ContainsPuzzles(const std::vector<std::string>& ids) {
  std::vector<bool> found(ids.size(), false);
  if (ids.empty()) return found;
  std::vector<rocksdb::Slice> slices;
  slices.reserve(ids.size());
  for (const std::string& id : ids) slices.emplace_back(id);
  std::vector<rocksdb::PinnableSlice> values(ids.size());
  std::vector<rocksdb::Status> statuses(ids.size());
  db_->MultiGet(rocksdb::ReadOptions(), cf(kPuzzles), ids.size(), slices.data(), values.data(),
                statuses.data());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (statuses[i].ok()) {
      found[i] = true;
    } else if (!statuses[i].IsNotFound()) {
      return FromRocks(statuses[i], dir_, "cannot look up puzzle " + ids[i]);
    }
  }
  return found;
}

Status RocksStore::Commit(const CommitBatch& batch) {
  const Campaign& campaign = batch.campaign;
  if (campaign.id().empty()) return Status::InvalidArgument("commit: the campaign has no id");
  if (!keys::IsValidKeyComponent(campaign.id())) {
    return Status::InvalidArgument("commit: campaign id contains a NUL byte");
  }

  // Validate and encode everything before taking the lock.
  rocksdb::WriteBatch wb;
  std::vector<std::string> member_keys;
  member_keys.reserve(batch.puzzles.size());
  std::unordered_set<std::string_view> ids;
  std::vector<PuzzleCatalog::Fact> facts;
  facts.reserve(batch.puzzles.size());
  std::string bytes;
  for (const Puzzle& p : batch.puzzles) {
    if (p.id().empty()) return Status::InvalidArgument("commit: a puzzle has no id");
    if (p.family().empty()) return Status::InvalidArgument("commit: puzzle " + p.id() + " has no family");
    if (!keys::IsValidKeyComponent(p.family()) || !keys::IsValidKeyComponent(p.difficulty().level())) {
      return Status::InvalidArgument("commit: puzzle " + p.id() +
                                     " has a NUL byte in its family or level");
    }
    if (p.campaign_id() != campaign.id()) {
      return Status::InvalidArgument("commit: puzzle " + p.id() + " names campaign \"" +
                                     p.campaign_id() + "\", not the batch's campaign " + campaign.id());
    }
    if (!ids.insert(p.id()).second) {
      return Status::AlreadyExists("commit: puzzle " + p.id() + " appears twice in the batch");
    }
    member_keys.push_back(keys::CampaignMemberKey(campaign.id(), p.index()));
    if (!SerializeReadable(p, &bytes)) {
      return Status::InvalidArgument("commit: puzzle " + p.id() +
                                     " does not serialize to a readable record (a string field "
                                     "that is not valid UTF-8?)");
    }
    rocksdb::Status s = wb.Put(cf(kPuzzles), p.id(), bytes);
    if (s.ok()) s = wb.Put(cf(kByFamily), keys::ByFamilyKey(p.family(), p.difficulty().level(), p.id()), "");
    if (s.ok()) s = wb.Put(cf(kCampaignMembers), member_keys.back(), p.id());
    if (s.ok()) s = wb.Put(cf(kByScore), ByScoreKeyOf(p), CatalogValueOf(p));
    if (s.ok()) s = wb.Put(cf(kByCreated), keys::ByCreatedKey(p.created_unix_ms(), p.id()), "");
    if (!s.ok()) return FromRocks(s, dir_, "commit: cannot build the write batch");
    facts.push_back({p.family(), p.id(), p.difficulty().level(), p.difficulty().score(),
                     p.created_unix_ms(), p.campaign_id()});
  }
  {
    std::set<std::string_view> distinct(member_keys.begin(), member_keys.end());
    if (distinct.size() != member_keys.size()) {
      return Status::AlreadyExists("commit: two puzzles of the batch have the same candidate index");
    }
  }
  if (!SerializeReadable(campaign, &bytes)) {
    return Status::InvalidArgument("commit: campaign " + campaign.id() +
                                   " does not serialize to a readable record (a string field "
                                   "that is not valid UTF-8?)");
  }
  rocksdb::Status s = wb.Put(cf(kCampaigns), campaign.id(), bytes);
  if (!s.ok()) return FromRocks(s, dir_, "commit: cannot build the write batch");

  std::lock_guard<std::mutex> commit_lock(commit_mu_);

  // Nothing in the batch may exist yet: an id stored twice or a member
  // entry overwritten would leave the indexes and the counters wrong.
  const size_t n = batch.puzzles.size();
  if (n > 0) {
    std::vector<rocksdb::ColumnFamilyHandle*> cfs(2 * n);
    std::vector<rocksdb::Slice> lookup(2 * n);
    for (size_t i = 0; i < n; ++i) {
      cfs[i] = cf(kPuzzles);
      lookup[i] = batch.puzzles[i].id();
      cfs[n + i] = cf(kCampaignMembers);
      lookup[n + i] = member_keys[i];
    }
    std::vector<rocksdb::PinnableSlice> values(2 * n);
    std::vector<rocksdb::Status> statuses(2 * n);
    db_->MultiGet(rocksdb::ReadOptions(), 2 * n, cfs.data(), lookup.data(), values.data(),
                  statuses.data());
    for (size_t i = 0; i < 2 * n; ++i) {
      if (statuses[i].IsNotFound()) continue;
      if (!statuses[i].ok()) return FromRocks(statuses[i], dir_, "commit: cannot check existing entries");
      const Puzzle& p = batch.puzzles[i % n];
      if (i < n) return Status::AlreadyExists("commit: puzzle " + p.id() + " is already stored");
      return Status::AlreadyExists("commit: campaign " + campaign.id() +
                                   " already has a puzzle at candidate index " +
                                   std::to_string(p.index()));
    }
  }

  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  s = db_->Write(wo, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "commit: cannot write");

  // Still under commit_mu_, so the catalog never holds an id twice.
  catalog_.Add(facts);
  return Status::Ok();
}

std::map<std::string, uint64_t> RocksStore::PuzzleCounts() {
  std::map<std::string, uint64_t> counts;
  for (const auto& [group, n] : catalog_.LevelCounts()) counts[group.first] += n;
  return counts;
}

std::map<std::pair<std::string, std::string>, uint64_t> RocksStore::LevelCounts() {
  return catalog_.LevelCounts();
}

StoreStats RocksStore::Stats(bool count_levels) {
  StoreStats st;
  auto sum = [&](const std::string& property) {
    uint64_t v = 0;
    return db_->GetAggregatedIntProperty(property, &v) ? static_cast<double>(v) : 0.0;
  };
  // DB-wide properties and those of the shared block cache: read once.
  auto one = [&](const std::string& property) {
    uint64_t v = 0;
    return db_->GetIntProperty(cf(kDefault), property, &v) ? static_cast<double>(v) : 0.0;
  };
  using P = rocksdb::DB::Properties;
  st.live_data_bytes = sum(P::kEstimateLiveDataSize);
  st.sst_files_bytes = sum(P::kTotalSstFilesSize);
  st.memtable_bytes = sum(P::kCurSizeAllMemTables);
  st.pending_compaction_bytes = sum(P::kEstimatePendingCompactionBytes);
  st.running_compactions = one(P::kNumRunningCompactions);
  st.running_flushes = one(P::kNumRunningFlushes);
  st.write_stopped = one(P::kIsWriteStopped) != 0;
  st.delayed_write_rate_bytes = one(P::kActualDelayedWriteRate);
  st.block_cache_usage_bytes = one(P::kBlockCacheUsage);
  st.block_cache_capacity_bytes = one(P::kBlockCacheCapacity);
  if (const std::shared_ptr<rocksdb::Statistics> stats = db_->GetDBOptions().statistics) {
    st.write_stall_seconds = static_cast<double>(stats->getTickerCount(rocksdb::STALL_MICROS)) / 1e6;
    st.block_cache_hits = stats->getTickerCount(rocksdb::BLOCK_CACHE_HIT);
    st.block_cache_misses = stats->getTickerCount(rocksdb::BLOCK_CACHE_MISS);
  }
  if (count_levels) {
    st.puzzles_by_level = catalog_.LevelCounts();
    st.has_level_counts = true;
  }
  return st;
}

// ---------------------------------------------------------------------------
// Campaigns

Status RocksStore::PutCampaign(const Campaign& campaign) {
  if (campaign.id().empty()) return Status::InvalidArgument("campaign has no id");
  if (!keys::IsValidKeyComponent(campaign.id())) {
    return Status::InvalidArgument("campaign id contains a NUL byte");
  }
  std::string bytes;
  if (!SerializeReadable(campaign, &bytes)) {
    return Status::InvalidArgument("campaign " + campaign.id() +
                                   " does not serialize to a readable record (a string field "
                                   "that is not valid UTF-8?)");
  }
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  return FromRocks(db_->Put(wo, cf(kCampaigns), campaign.id(), bytes), dir_,
                   "cannot write campaign " + campaign.id());
}

Result<std::vector<Campaign>> RocksStore::LoadCampaigns() {
  std::vector<Campaign> campaigns;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(kCampaigns)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Campaign campaign;
    const rocksdb::Slice value = it->value();
    if (!campaign.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
      return Status::DataLoss("store at " + dir_ + ": campaign " + it->key().ToString() +
                              " has an unreadable record");
    }
    campaigns.push_back(std::move(campaign));
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "cannot read campaigns");
  return campaigns;
}

}  // namespace foundry::storage
