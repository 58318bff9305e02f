// What storage/backup.cc and rocks_store_backup.cc share about RocksDB's
// BackupEngine: its options, our metadata in each backup, error mapping.
// Private to storage/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <rocksdb/utilities/backup_engine.h>

#include "common/status.h"
#include "storage/backup.h"

namespace foundry::storage::backup_engine {

// The options every engine over `backup_dir` is opened with (RocksDB asks
// for the same ones each time): table files shared between backups and
// named by their checksum, every file synced, one copying thread (the
// coordinator's commits keep the other core).
rocksdb::BackupEngineOptions Options(const std::string& backup_dir);

// A writable engine over `backup_dir` (created when missing), copying at
// most `rate_limit` bytes a second (0: no limit).
Result<std::unique_ptr<rocksdb::BackupEngine>> OpenWritable(const std::string& backup_dir,
                                                            uint64_t rate_limit = 0);

// A read-only engine over `backup_dir`; NotFound when it holds no backups.
Result<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenReadOnly(const std::string& backup_dir);

// The metadata stored with each backup: what the store held when it began.
std::string EncodeMetadata(int schema_version, uint64_t puzzles, uint64_t campaigns);

// A summary of `info`, with the figures of its metadata when it reads.
BackupSummary Summarize(const rocksdb::BackupInfo& info);

// Maps a BackupEngine status onto ours, naming `what` and `backup_dir`:
// corruption and checksum mismatches are DataLoss, a full disk
// ResourceExhausted, a missing file DataLoss.
Status FromBackupStatus(const rocksdb::Status& s, const std::string& backup_dir,
                        const std::string& what);

}  // namespace foundry::storage::backup_engine
