#include "coordinator/backup_service.h"

#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "common/quote.h"
#include "common/rpc_status.h"

namespace foundry::coordinator {

grpc::Status StoreAdminServiceImpl::BackupStore(grpc::ServerContext* context,
                                                const foundry::v1::BackupStoreRequest* request,
                                                foundry::v1::BackupStoreResponse* response) {
  if (grpc::Status allowed = access_.Check(context, Role::kAdmin); !allowed.ok()) return allowed;
  const std::string& dir = request->backup_dir();
  // A relative path would be resolved against the coordinator's working
  // directory, which the caller cannot see.
  if (dir.empty() || !std::filesystem::path(dir).is_absolute()) {
    return {grpc::StatusCode::INVALID_ARGUMENT,
            fmt::format("backup_dir must be an absolute directory on the coordinator's "
                        "filesystem, got '{}'",
                        QuoteInput(dir))};
  }
  std::unique_lock<std::mutex> lock(running_, std::try_to_lock);
  if (!lock.owns_lock()) {
    return {grpc::StatusCode::ABORTED, "another backup of this store is running; try again later"};
  }
  const auto start = std::chrono::steady_clock::now();
  storage::BackupOptions options;
  options.keep = request->keep();
  options.rate_limit_bytes_per_second = settings_.rate_limit_bytes_per_second;
  Result<storage::BackupSummary> backup = store_.Backup(dir, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!backup.ok()) {
    if (settings_.metrics) settings_.metrics->Failed(seconds);
    fmt::print(stderr, "foundry-coordinator: backup to {} failed after {:.1f} s: {}\n", dir,
               seconds, backup.status().message());
    return ToGrpc(backup.status());
  }
  if (settings_.metrics)
    settings_.metrics->Succeeded(seconds, backup->timestamp_unix, backup->size_bytes);
  fmt::print("foundry-coordinator: backup {} to {} in {:.1f} s ({} files, {} bytes)\n", backup->id,
             dir, seconds, backup->files, backup->size_bytes);
  std::fflush(stdout);
  foundry::v1::BackupInfo* info = response->mutable_backup();
  info->set_backup_id(backup->id);
  info->set_timestamp_unix(backup->timestamp_unix);
  info->set_size_bytes(backup->size_bytes);
  info->set_files(backup->files);
  info->set_puzzles(backup->puzzles);
  info->set_campaigns(backup->campaigns);
  response->set_seconds(seconds);
  return grpc::Status::OK;
}

}  // namespace foundry::coordinator
