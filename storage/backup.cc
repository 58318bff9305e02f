#include "storage/backup.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "storage/backup_engine.h"
#include "storage/rocks_util.h"
#include "storage/store.h"

namespace foundry::storage {

namespace fs = std::filesystem;

namespace {

std::string ListIds(const std::vector<BackupSummary>& backups) {
  std::string ids;
  for (const BackupSummary& b : backups) ids += (ids.empty() ? "" : ", ") + std::to_string(b.id);
  return ids.empty() ? "none" : ids;
}

// Whether `inner` is `outer` or lies below it, after resolving links.
bool IsWithin(const std::string& inner, const std::string& outer) {
  std::error_code ec;
  const fs::path in = fs::weakly_canonical(inner, ec);
  if (ec) return false;
  const fs::path out = fs::weakly_canonical(outer, ec);
  if (ec) return false;
  auto [o, i] = std::mismatch(out.begin(), out.end(), in.begin(), in.end());
  return o == out.end();
}

// The backup `id` among `good` (nullopt: the newest), or why not.
Result<BackupSummary> Pick(const std::vector<BackupSummary>& good,
                           const std::vector<uint32_t>& damaged, std::optional<uint32_t> id,
                           const std::string& backup_dir) {
  if (!id) {
    if (good.empty()) return Status::NotFound("no good backup in " + backup_dir);
    return good.back();
  }
  if (std::find(damaged.begin(), damaged.end(), *id) != damaged.end()) {
    return Status::DataLoss("backup " + std::to_string(*id) + " in " + backup_dir +
                            " is damaged: its metadata does not read");
  }
  for (const BackupSummary& b : good) {
    if (b.id == *id) return b;
  }
  return Status::NotFound("no backup " + std::to_string(*id) + " in " + backup_dir + " (it holds " +
                          ListIds(good) + ")");
}

Status RemoveChildren(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
  if (ec) return FromErrorCode(ec, "cannot clean", dir);
  return Status::Ok();
}

}  // namespace

Status CheckBackupTarget(const std::string& db_dir, const std::string& backup_dir) {
  if (backup_dir.empty()) return Status::InvalidArgument("the backup directory is an empty string");
  if (IsWithin(backup_dir, db_dir)) {
    return Status::FailedPrecondition("the backup directory " + backup_dir +
                                      " lies inside the store " + db_dir +
                                      "; give one outside it (a backup must survive the store)");
  }
  std::error_code ec;
  const fs::file_status st = fs::status(backup_dir, ec);
  if (!fs::exists(st)) return Status::Ok();
  if (!fs::is_directory(st)) {
    return Status::FailedPrecondition(backup_dir + " is not a directory");
  }
  if (fs::is_directory(fs::path(backup_dir) / "meta", ec)) return Status::Ok();
  if (fs::directory_iterator(backup_dir, ec) != fs::directory_iterator() || ec) {
    return Status::FailedPrecondition(backup_dir +
                                      " is not empty and holds no backups; refusing to write "
                                      "backups among its files (give an empty or new directory)");
  }
  return Status::Ok();
}

Result<std::vector<BackupSummary>> ListBackups(const std::string& backup_dir,
                                               std::vector<uint32_t>* damaged) {
  auto engine = backup_engine::OpenReadOnly(backup_dir);
  if (!engine.ok()) return engine.status();
  std::vector<rocksdb::BackupInfo> infos;
  (*engine)->GetBackupInfo(&infos);
  std::vector<BackupSummary> out;
  for (const rocksdb::BackupInfo& info : infos) out.push_back(backup_engine::Summarize(info));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  if (damaged) {
    std::vector<rocksdb::BackupID> ids;
    (*engine)->GetCorruptedBackups(&ids);
    damaged->assign(ids.begin(), ids.end());
    std::sort(damaged->begin(), damaged->end());
  }
  return out;
}

Result<std::vector<BackupSummary>> VerifyBackups(const std::string& backup_dir,
                                                 std::optional<uint32_t> id) {
  auto engine = backup_engine::OpenReadOnly(backup_dir);
  if (!engine.ok()) return engine.status();
  std::vector<uint32_t> damaged;
  auto good = ListBackups(backup_dir, &damaged);
  if (!good.ok()) return good.status();
  std::vector<BackupSummary> chosen;
  if (id) {
    auto one = Pick(*good, damaged, id, backup_dir);
    if (!one.ok()) return one.status();
    chosen.push_back(*one);
  } else {
    if (!damaged.empty()) {
      return Status::DataLoss("backup " + std::to_string(damaged.front()) + " in " + backup_dir +
                              " is damaged: its metadata does not read");
    }
    if (good->empty()) return Status::NotFound("no backups in " + backup_dir);
    chosen = *good;
  }
  for (const BackupSummary& b : chosen) {
    rocksdb::IOStatus s = (*engine)->VerifyBackup(b.id, /*verify_with_checksum=*/true);
    if (!s.ok()) {
      // Every failure of a check is damage: a file missing, of another
      // size, or whose checksum differs.
      return Status::DataLoss("backup " + std::to_string(b.id) + " in " + backup_dir +
                              " is damaged: RocksDB: " + s.ToString());
    }
  }
  return chosen;
}

Result<BackupSummary> RestoreBackup(const std::string& backup_dir, const std::string& db_dir,
                                    std::optional<uint32_t> id) {
  if (db_dir.empty()) return Status::InvalidArgument("the store directory is an empty string");
  std::error_code ec;
  const fs::file_status st = fs::status(db_dir, ec);
  const bool exists = fs::exists(st);
  if (exists) {
    if (!fs::is_directory(st)) return Status::FailedPrecondition(db_dir + " is not a directory");
    if (fs::directory_iterator(db_dir, ec) != fs::directory_iterator() || ec) {
      return Status::FailedPrecondition(
          db_dir +
          " is not empty: a restore never writes over an existing store or files. Move "
          "it aside (or give a new directory) and restore again");
    }
  }
  if (IsWithin(db_dir, backup_dir) || IsWithin(backup_dir, db_dir)) {
    return Status::FailedPrecondition("the store " + db_dir + " and the backups " + backup_dir +
                                      " must not lie inside each other");
  }
  auto engine = backup_engine::OpenReadOnly(backup_dir);
  if (!engine.ok()) return engine.status();
  std::vector<uint32_t> damaged;
  auto good = ListBackups(backup_dir, &damaged);
  if (!good.ok()) return good.status();
  auto chosen = Pick(*good, damaged, id, backup_dir);
  if (!chosen.ok()) return chosen.status();

  // An absent target is built under a temporary name beside it and renamed
  // at the end, so that it never holds half a store.
  const std::string target = exists ? db_dir
                                    : fs::path(db_dir).lexically_normal().string() + ".restoring-" +
                                          std::to_string(::getpid());
  if (!exists) {
    fs::create_directories(target, ec);
    if (ec) return FromErrorCode(ec, "cannot create", target);
  }
  // Owner-only, as a store the coordinator creates: it holds every solution.
  fs::permissions(target, fs::perms::owner_all, fs::perm_options::replace, ec);
  const auto discard = [&] {
    if (exists) {
      (void)RemoveChildren(target);
    } else {
      fs::remove_all(target, ec);
    }
  };
  rocksdb::IOStatus s =
      (*engine)->RestoreDBFromBackup(rocksdb::RestoreOptions(), chosen->id, target, target);
  // The engine's copying threads may still be writing after a failure is
  // reported; its destructor joins them, so the cleanup comes after.
  engine->reset();
  if (!s.ok()) {
    discard();
    return backup_engine::FromBackupStatus(
        s, backup_dir, "restore of backup " + std::to_string(chosen->id) + " failed");
  }
  if (!exists) {
    fs::rename(target, db_dir, ec);
    if (ec) {
      discard();
      return FromErrorCode(ec, "cannot rename " + target + " to", db_dir);
    }
  }
  // Opening checks what was restored, replays its log and closes it with a
  // flush, so that the coordinator's first start replays nothing.
  StoreOptions options;
  options.create_if_missing = false;
  auto store = Store::Open(db_dir, options);
  if (!store.ok()) {
    return store.status().WithContext("backup " + std::to_string(chosen->id) +
                                      " was restored into " + db_dir + " but does not open");
  }
  BackupSummary restored = *chosen;
  uint64_t puzzles = 0;
  for (const auto& [family, n] : (*store)->PuzzleCounts()) puzzles += n;
  restored.puzzles = puzzles;
  auto campaigns = (*store)->LoadCampaigns();
  if (campaigns.ok()) restored.campaigns = campaigns->size();
  return restored;
}

Result<BackupSummary> BackupStoppedStore(const std::string& db_dir, const std::string& backup_dir,
                                         const BackupOptions& backup_options) {
  FOUNDRY_RETURN_IF_ERROR(CheckBackupTarget(db_dir, backup_dir));
  StoreOptions options;
  options.create_if_missing = false;
  auto store = Store::Open(db_dir, options);
  if (!store.ok()) return store.status();
  return (*store)->Backup(backup_dir, backup_options);
}

}  // namespace foundry::storage
