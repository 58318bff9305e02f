// RocksStore, backups: RocksDB's BackupEngine over the open database, while
// reads and commits go on (docs/decisions.md, "Backups").
#include <numeric>

#include <rocksdb/db.h>

#include "storage/backup_engine.h"
#include "storage/rocks_store.h"

namespace foundry::storage {

Result<BackupSummary> RocksStore::Backup(const std::string& backup_dir,
                                         const BackupOptions& backup_options) {
  FOUNDRY_RETURN_IF_ERROR(CheckBackupTarget(dir_, backup_dir));
  auto engine = backup_engine::OpenWritable(backup_dir, backup_options.rate_limit_bytes_per_second);
  if (!engine.ok()) return engine.status();

  const std::map<std::string, uint64_t> counts = PuzzleCounts();
  const uint64_t puzzles =
      std::accumulate(counts.begin(), counts.end(), uint64_t{0},
                      [](uint64_t n, const auto& kv) { return n + kv.second; });
  auto campaigns = LoadCampaigns();
  if (!campaigns.ok()) return campaigns.status();

  // No flush first: the backup holds the live table files and the
  // write-ahead logs still needed (up to max_wal_bytes), which a restore
  // replays. A flush of every column family at each backup slowed the
  // campaign committing meanwhile by 40%, against 16% without it
  // (docs/benchmarks.md, "2026-11-26: backups"). RocksDB keeps the column
  // families consistent with each other either way: it stops file
  // deletions, lists the live files and copies every log still needed.
  rocksdb::CreateBackupOptions options;
  options.flush_before_backup = false;
  // The copying thread (checksums included) runs at the lowest CPU
  // priority, so that commits and reads keep their share of a busy machine
  // (docs/benchmarks.md, "2026-11-26: backups").
  options.decrease_background_thread_cpu_priority = true;
  options.background_thread_cpu_priority = rocksdb::CpuPriority::kLow;
  rocksdb::BackupID id = 0;
  rocksdb::IOStatus s = (*engine)->CreateNewBackupWithMetadata(
      options, db_.get(),
      backup_engine::EncodeMetadata(Store::kSchemaVersion, puzzles, campaigns->size()), &id);
  if (!s.ok())
    return backup_engine::FromBackupStatus(s, backup_dir, "backup of " + dir_ + " failed");
  if (backup_options.keep > 0) {
    s = (*engine)->PurgeOldBackups(backup_options.keep);
    if (!s.ok()) {
      return backup_engine::FromBackupStatus(
          s, backup_dir,
          "backup " + std::to_string(id) + " is good, but deleting older ones failed");
    }
  }
  rocksdb::BackupInfo info;
  rocksdb::Status got = (*engine)->GetBackupInfo(id, &info);
  if (!got.ok()) return backup_engine::FromBackupStatus(got, backup_dir, "cannot read back backup");
  return backup_engine::Summarize(info);
}

}  // namespace foundry::storage
