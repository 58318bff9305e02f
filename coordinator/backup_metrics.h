// The coordinator's backup metrics: when the last good backup was taken,
// how long backups take, how many failed. docs/metrics.md lists them; the
// FoundryBackupTooOld alert reads the first.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is this.
#pragma once

#include <cstdint>

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

namespace foundry::coordinator {

class BackupMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  explicit BackupMetrics(prometheus::Registry& registry);

  // A backup finished well after `seconds`; it was taken at
  // `timestamp_unix` and its files total `bytes`.
  void Succeeded(double seconds, int64_t timestamp_unix, uint64_t bytes);
  // A backup failed after `seconds`.
  void Failed(double seconds);
  // The newest good backup found at start (in --backup-dir), so that the
  // age is known before this process took one.
  void SetLastSuccess(int64_t timestamp_unix, uint64_t bytes);

 private:
  prometheus::Gauge& last_success_;
  prometheus::Gauge& duration_;
  prometheus::Gauge& size_;
  prometheus::Counter& failures_;
};

}  // namespace foundry::coordinator
