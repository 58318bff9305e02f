// Backups of a store: RocksDB's BackupEngine over a backup directory.
//
// A backup directory holds numbered backups (1, 2, ...). Table files are
// shared between backups (named by their checksum), so a backup copies only
// the files the previous ones lack; every file has a crc32c recorded in its
// backup's metadata. Taking a backup of an open store is Store::Backup; the
// functions here act on backup directories and on stopped stores.
//
// Thread safety: the functions may run at once on different backup
// directories. Two writers (Backup, BackupStoppedStore) on the same backup
// directory at once are not allowed (the coordinator serialises its own).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace foundry::storage {

// One backup in a backup directory.
struct BackupSummary {
  uint32_t id = 0;
  int64_t timestamp_unix = 0;  // when it was taken, seconds since 1970
  uint64_t size_bytes = 0;     // all its files, shared ones included
  uint32_t files = 0;
  // What the store held when the backup began (the backup holds at least
  // this; commits that land during it may be in it too).
  uint64_t puzzles = 0;
  uint64_t campaigns = 0;
  // The store's schema version.
  int schema_version = 0;
};

// How a backup is taken.
struct BackupOptions {
  // How many backups to keep after taking one: the oldest beyond it are
  // deleted (with the shared files only they use). 0 keeps all.
  uint32_t keep = 0;
  // Bytes copied per second at most (0: as fast as the disk and CPU go).
  // Spreads an online backup's work over a longer time, so that the
  // campaigns committing meanwhile keep more of the machine.
  uint64_t rate_limit_bytes_per_second = 0;
};

// Every good backup in `backup_dir`, oldest first, and the ids of those
// whose metadata is damaged in `damaged`. NotFound when `backup_dir` holds
// no backup directory; DataLoss when RocksDB cannot read it.
Result<std::vector<BackupSummary>> ListBackups(const std::string& backup_dir,
                                               std::vector<uint32_t>* damaged = nullptr);

// Re-reads every file of backup `id` (nullopt: every backup) and compares
// its size and crc32c with what the backup recorded. Returns the backups
// checked. DataLoss naming the backup and the file on a mismatch, a missing
// file or damaged metadata; NotFound for an unknown id or no backups.
Result<std::vector<BackupSummary>> VerifyBackups(const std::string& backup_dir,
                                                 std::optional<uint32_t> id);

// Restores backup `id` (nullopt: the latest) into `db_dir`, which must not
// exist or be an empty directory: an existing store is never overwritten
// (FailedPrecondition naming it). A new directory is made owner-only; an
// absent `db_dir` appears only once the restore is complete (it is built
// beside it under a temporary name and renamed). The restored store is then
// opened once to check it and to leave nothing to replay. Returns the
// restored backup. NotFound for an unknown id; DataLoss when a file does not
// match its checksum (nothing is left in `db_dir`).
Result<BackupSummary> RestoreBackup(const std::string& backup_dir, const std::string& db_dir,
                                    std::optional<uint32_t> id);

// Takes a backup of the stopped store in `db_dir` (it is opened, which takes
// its lock, and closed again). Unavailable when a running process holds the
// store; InvalidArgument when `db_dir` holds no store; otherwise as
// Store::Backup.
Result<BackupSummary> BackupStoppedStore(const std::string& db_dir, const std::string& backup_dir,
                                         const BackupOptions& options = {});

// Checks a backup directory before a backup is written into it: it must be
// absent, empty, or hold backups, and must not lie inside `db_dir`.
// FailedPrecondition naming the problem.
Status CheckBackupTarget(const std::string& db_dir, const std::string& backup_dir);

}  // namespace foundry::storage
