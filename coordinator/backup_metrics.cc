#include "coordinator/backup_metrics.h"

#include "common/metric_builders.h"

namespace foundry::coordinator {

BackupMetrics::BackupMetrics(prometheus::Registry& registry)
    : last_success_(metrics::Gauge(
          registry, "foundry_backup_last_success_timestamp_seconds",
          "When the newest good backup of the store was taken (0: none known to this process)")),
      duration_(metrics::Gauge(registry, "foundry_backup_duration_seconds",
                               "Wall time of the last backup, good or failed")),
      size_(metrics::Gauge(registry, "foundry_backup_size_bytes",
                           "Size of the newest good backup (its shared files included)")),
      failures_(metrics::Counter(registry, "foundry_backup_failures_total",
                                 "Backups of the store that failed")) {}

void BackupMetrics::Succeeded(double seconds, int64_t timestamp_unix, uint64_t bytes) {
  duration_.Set(seconds);
  SetLastSuccess(timestamp_unix, bytes);
}

void BackupMetrics::Failed(double seconds) {
  duration_.Set(seconds);
  failures_.Increment();
}

void BackupMetrics::SetLastSuccess(int64_t timestamp_unix, uint64_t bytes) {
  last_success_.Set(static_cast<double>(timestamp_unix));
  size_.Set(static_cast<double>(bytes));
}

}  // namespace foundry::coordinator
