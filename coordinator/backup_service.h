// StoreAdmin: online backups of the coordinator's store over gRPC
// (proto/foundry/v1/backup.proto). Admin only.
#pragma once

#include <mutex>

#include "coordinator/access_control.h"
#include "coordinator/backup_metrics.h"
#include "foundry/v1/backup.grpc.pb.h"
#include "storage/store.h"

namespace foundry::coordinator {

// How the coordinator takes online backups.
struct BackupSettings {
  // Records each backup (nullable; must outlive the server).
  BackupMetrics* metrics = nullptr;
  // Bytes a backup copies per second at most (0: no limit).
  uint64_t rate_limit_bytes_per_second = 0;
};

class StoreAdminServiceImpl final : public foundry::v1::StoreAdmin::Service {
 public:
  // `store` and `access` must outlive the service.
  StoreAdminServiceImpl(storage::Store& store, const AccessControl& access,
                        const BackupSettings& settings)
      : store_(store), access_(access), settings_(settings) {}

  // One backup at a time: a second call while one runs is ABORTED at once
  // (two writers in one backup directory would damage it, and two copies
  // at once would halve the commits' share of the disk).
  grpc::Status BackupStore(grpc::ServerContext*, const foundry::v1::BackupStoreRequest*,
                           foundry::v1::BackupStoreResponse*) override;

 private:
  storage::Store& store_;
  const AccessControl& access_;
  const BackupSettings settings_;
  std::mutex running_;
};

}  // namespace foundry::coordinator
