#include "storage/backup_engine.h"

#include <filesystem>
#include <sstream>

#include <rocksdb/env.h>

namespace foundry::storage::backup_engine {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMetadataTag = "foundry-store-backup 1";

}  // namespace

rocksdb::BackupEngineOptions Options(const std::string& backup_dir) {
  rocksdb::BackupEngineOptions options(backup_dir);
  options.share_table_files = true;
  options.share_files_with_checksum = true;
  options.sync = true;
  options.max_background_operations = 1;
  return options;
}

Result<std::unique_ptr<rocksdb::BackupEngine>> OpenWritable(const std::string& backup_dir,
                                                            uint64_t rate_limit) {
  rocksdb::BackupEngineOptions options = Options(backup_dir);
  options.backup_rate_limit = rate_limit;
  rocksdb::BackupEngine* raw = nullptr;
  rocksdb::IOStatus s = rocksdb::BackupEngine::Open(options, rocksdb::Env::Default(), &raw);
  if (!s.ok()) return FromBackupStatus(s, backup_dir, "cannot open the backup directory");
  return std::unique_ptr<rocksdb::BackupEngine>(raw);
}

Result<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenReadOnly(const std::string& backup_dir) {
  std::error_code ec;
  // A read-only engine over a directory without backups would report an
  // empty list; a typo in the path deserves its own message.
  if (!fs::is_directory(fs::path(backup_dir) / "meta", ec)) {
    return Status::NotFound("no backups in " + backup_dir +
                            " (it holds no meta/ directory of RocksDB's BackupEngine)");
  }
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  rocksdb::IOStatus s =
      rocksdb::BackupEngineReadOnly::Open(Options(backup_dir), rocksdb::Env::Default(), &raw);
  if (!s.ok()) return FromBackupStatus(s, backup_dir, "cannot open the backup directory");
  return std::unique_ptr<rocksdb::BackupEngineReadOnly>(raw);
}

std::string EncodeMetadata(int schema_version, uint64_t puzzles, uint64_t campaigns) {
  std::ostringstream out;
  out << kMetadataTag << "\nschema " << schema_version << "\npuzzles " << puzzles << "\ncampaigns "
      << campaigns << "\n";
  return out.str();
}

BackupSummary Summarize(const rocksdb::BackupInfo& info) {
  BackupSummary summary;
  summary.id = info.backup_id;
  summary.timestamp_unix = info.timestamp;
  summary.size_bytes = info.size;
  summary.files = info.number_files;
  std::istringstream in(info.app_metadata);
  std::string line;
  if (!std::getline(in, line) || line != kMetadataTag) return summary;
  std::string key;
  uint64_t value = 0;
  while (in >> key >> value) {
    if (key == "schema") summary.schema_version = static_cast<int>(value);
    if (key == "puzzles") summary.puzzles = value;
    if (key == "campaigns") summary.campaigns = value;
  }
  return summary;
}

Status FromBackupStatus(const rocksdb::Status& s, const std::string& backup_dir,
                        const std::string& what) {
  if (s.ok()) return Status::Ok();
  const std::string msg = what + " (backups at " + backup_dir + "): RocksDB: " + s.ToString();
  if (s.IsCorruption() || s.IsPathNotFound() || s.IsNotFound()) return Status::DataLoss(msg);
  if (s.IsNoSpace()) return Status::ResourceExhausted(msg);
  if (s.IsBusy() || s.IsTryAgain()) return Status::Unavailable(msg);
  if (s.IsInvalidArgument() || s.IsNotSupported()) return Status::FailedPrecondition(msg);
  return Status::Internal(msg);
}

}  // namespace foundry::storage::backup_engine
