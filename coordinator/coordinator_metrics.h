// The coordinator's Prometheus metrics: what was committed and stored, the
// state of leases and workers, and the store's engine (RocksDB). The gRPC
// request metrics are in rpc_metrics.h. docs/metrics.md lists which process
// exports which metric.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is
// CoordinatorMetrics. StoreStatsPoller owns one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "storage/store.h"

namespace foundry::coordinator {

class CoordinatorMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  explicit CoordinatorMetrics(prometheus::Registry& registry);

  // The per-family counters are created at their first commit, zero or not,
  // so that rates over them exist before the first duplicate or invalid one.
  void Stored(const std::string& family, uint64_t n) { Inc(stored_, family, n); }
  void Duplicates(const std::string& family, uint64_t n) { Inc(duplicates_, family, n); }
  void Invalid(const std::string& family, uint64_t n) { Inc(invalid_, family, n); }
  // outcome: "committed", "repeated".
  void JobOutcome(const std::string& outcome) { jobs_.Add({{"outcome", outcome}}).Increment(); }
  void LeaseLapsed() { lapsed_.Increment(); }
  void SetJobsInFlight(double n) { in_flight_.Set(n); }
  void SetWorkers(double n) { workers_.Set(n); }
  void SetProgress(const std::string& campaign, double ratio) {
    progress_.Add({{"campaign", campaign}}).Set(ratio);
  }
  void SetStorePuzzles(const std::string& family, double n) {
    store_puzzles_.Add({{"family", family}}).Set(n);
  }
  void StoreWrite(double seconds) { store_write_.Observe(seconds); }

  // 1 while the campaign is running, 0 once it ended (done, cancelled,
  // exhausted or failed).
  void SetCampaignRunning(const std::string& campaign, const std::string& family, bool running) {
    campaign_running_.Add({{"campaign", campaign}, {"family", family}}).Set(running ? 1 : 0);
  }
  // The store's engine figures. Tickers in `stats` are cumulative; the
  // counters advance by the difference from the previous call.
  void SetStoreStats(const storage::StoreStats& stats);

 private:
  static void Inc(prometheus::Family<prometheus::Counter>& f, const std::string& family, uint64_t n) {
    f.Add({{"family", family}}).Increment(static_cast<double>(n));
  }

  prometheus::Family<prometheus::Counter>& stored_;
  prometheus::Family<prometheus::Counter>& duplicates_;
  prometheus::Family<prometheus::Counter>& invalid_;
  prometheus::Family<prometheus::Counter>& jobs_;
  prometheus::Counter& lapsed_;
  prometheus::Gauge& in_flight_;
  prometheus::Gauge& workers_;
  prometheus::Family<prometheus::Gauge>& progress_;
  prometheus::Family<prometheus::Gauge>& store_puzzles_;
  prometheus::Histogram& store_write_;
  prometheus::Family<prometheus::Gauge>& campaign_running_;
  prometheus::Family<prometheus::Gauge>& store_level_puzzles_;

  // RocksDB.
  prometheus::Gauge& live_data_bytes_;
  prometheus::Gauge& sst_files_bytes_;
  prometheus::Gauge& memtable_bytes_;
  prometheus::Gauge& pending_compaction_bytes_;
  prometheus::Gauge& running_compactions_;
  prometheus::Gauge& running_flushes_;
  prometheus::Gauge& write_stopped_;
  prometheus::Gauge& delayed_write_rate_;
  prometheus::Gauge& block_cache_usage_;
  prometheus::Gauge& block_cache_capacity_;
  prometheus::Counter& write_stall_seconds_;
  prometheus::Counter& block_cache_hits_;
  prometheus::Counter& block_cache_misses_;

  std::mutex tickers_mu_;  // guards the last ticker values below
  double last_stall_seconds_ = 0;
  uint64_t last_hits_ = 0;
  uint64_t last_misses_ = 0;
};

struct StoreStatsPollerOptions {
  // How often the engine figures and campaign states are read. Default 2 s.
  std::chrono::milliseconds interval{2000};
  // Puzzles per (family, level) are recounted by reading the whole by_family
  // index, only when the store grew, at most this often, and never more
  // often than once per `level_scan_cost_factor` times the last count's
  // duration (so counting costs at most 1/factor of one core: a store of
  // 10^8 puzzles is recounted every few minutes). Defaults 5 s and 50.
  std::chrono::milliseconds min_level_interval{5000};
  double level_scan_cost_factor = 50;
};

// Reads Store::Stats() and the campaign records every `interval` on its own
// thread and sets the matching CoordinatorMetrics. The first reading is taken
// in the constructor.
class StoreStatsPoller {
 public:
  // `store` and `metrics` must outlive the poller.
  StoreStatsPoller(storage::Store& store, CoordinatorMetrics& metrics,
                   StoreStatsPollerOptions options = {});
  // Stops and joins the thread (waits for a level count in progress).
  ~StoreStatsPoller();
  StoreStatsPoller(const StoreStatsPoller&) = delete;
  StoreStatsPoller& operator=(const StoreStatsPoller&) = delete;

 private:
  void Poll();
  void Loop();

  storage::Store& store_;
  CoordinatorMetrics& metrics_;
  const StoreStatsPollerOptions options_;
  // Owned by the poller thread after construction.
  std::chrono::steady_clock::time_point next_level_count_{};
  uint64_t counted_total_ = UINT64_MAX;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace foundry::coordinator
