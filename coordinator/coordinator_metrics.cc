#include "coordinator/coordinator_metrics.h"

#include <numeric>

namespace foundry::coordinator {
namespace {

prometheus::Gauge& Gauge(prometheus::Registry& registry, const std::string& name,
                         const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry).Add({});
}

prometheus::Counter& Counter(prometheus::Registry& registry, const std::string& name,
                             const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add({});
}

}  // namespace

CoordinatorMetrics::CoordinatorMetrics(prometheus::Registry& registry)
    : stored_(prometheus::BuildCounter()
                  .Name("foundry_stored_total")
                  .Help("Puzzles new to the store, by family")
                  .Register(registry)),
      duplicates_(prometheus::BuildCounter()
                      .Name("foundry_duplicates_total")
                      .Help("Accepted puzzles already in the store, by family")
                      .Register(registry)),
      invalid_(prometheus::BuildCounter()
                   .Name("foundry_invalid_total")
                   .Help("Submitted puzzles that failed the coordinator's re-verification")
                   .Register(registry)),
      jobs_(prometheus::BuildCounter()
                .Name("foundry_jobs_total")
                .Help("Job results received by the coordinator, by outcome")
                .Register(registry)),
      lapsed_(Counter(registry, "foundry_lease_expirations_total",
                      "Leases that lapsed without a heartbeat and were re-queued")),
      in_flight_(Gauge(registry, "foundry_jobs_in_flight",
                       "Jobs leased to workers and not yet submitted")),
      workers_(Gauge(registry, "foundry_workers", "Workers seen in the last 30 seconds")),
      progress_(prometheus::BuildGauge()
                    .Name("foundry_campaign_progress_ratio")
                    .Help("Stored puzzles over the campaign's count")
                    .Register(registry)),
      store_puzzles_(prometheus::BuildGauge()
                         .Name("foundry_store_puzzles")
                         .Help("Puzzles in the store, by family")
                         .Register(registry)),
      store_write_(prometheus::BuildHistogram()
                       .Name("foundry_store_write_seconds")
                       .Help("Time to commit one job's batch to RocksDB")
                       .Register(registry)
                       .Add({}, prometheus::Histogram::BucketBoundaries{
                                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1})),
      campaign_running_(prometheus::BuildGauge()
                            .Name("foundry_campaign_running")
                            .Help("1 while the campaign is running, 0 once it ended")
                            .Register(registry)),
      store_level_puzzles_(prometheus::BuildGauge()
                               .Name("foundry_store_puzzles_by_level")
                               .Help("Puzzles in the store, by family and difficulty level "
                                     "(recounted periodically; foundry_store_puzzles is exact)")
                               .Register(registry)),
      live_data_bytes_(Gauge(registry, "foundry_rocksdb_live_data_bytes",
                             "RocksDB estimate of live data size (rocksdb.estimate-live-data-size)")),
      sst_files_bytes_(Gauge(registry, "foundry_rocksdb_sst_files_bytes",
                             "Size of all RocksDB SST files (rocksdb.total-sst-files-size)")),
      memtable_bytes_(Gauge(registry, "foundry_rocksdb_memtable_bytes",
                            "Size of RocksDB memtables (rocksdb.cur-size-all-mem-tables)")),
      pending_compaction_bytes_(Gauge(
          registry, "foundry_rocksdb_pending_compaction_bytes",
          "Bytes RocksDB compaction must rewrite (rocksdb.estimate-pending-compaction-bytes)")),
      running_compactions_(Gauge(registry, "foundry_rocksdb_running_compactions",
                                 "RocksDB compactions running now")),
      running_flushes_(Gauge(registry, "foundry_rocksdb_running_flushes",
                             "RocksDB memtable flushes running now")),
      write_stopped_(Gauge(registry, "foundry_rocksdb_write_stopped",
                           "1 while RocksDB stops writes (rocksdb.is-write-stopped)")),
      delayed_write_rate_(Gauge(registry, "foundry_rocksdb_delayed_write_rate_bytes",
                                "Bytes per second RocksDB allows while it slows writes down; "
                                "0 when it does not (rocksdb.actual-delayed-write-rate)")),
      block_cache_usage_(Gauge(registry, "foundry_rocksdb_block_cache_usage_bytes",
                               "Bytes held in the RocksDB block cache")),
      block_cache_capacity_(Gauge(registry, "foundry_rocksdb_block_cache_capacity_bytes",
                                  "Capacity of the RocksDB block cache")),
      write_stall_seconds_(Counter(registry, "foundry_rocksdb_write_stall_seconds_total",
                                   "Time writers spent delayed or stopped by RocksDB "
                                   "(statistics ticker rocksdb.stall.micros)")),
      block_cache_hits_(Counter(registry, "foundry_rocksdb_block_cache_hits_total",
                                "RocksDB block cache hits (rocksdb.block.cache.hit)")),
      block_cache_misses_(Counter(registry, "foundry_rocksdb_block_cache_misses_total",
                                  "RocksDB block cache misses (rocksdb.block.cache.miss)")) {
  // Outcomes exist at zero from the start: rates over them are 0, not absent.
  for (const char* outcome : {"committed", "repeated"}) jobs_.Add({{"outcome", outcome}});
}

void CoordinatorMetrics::SetStoreStats(const storage::StoreStats& st) {
  live_data_bytes_.Set(st.live_data_bytes);
  sst_files_bytes_.Set(st.sst_files_bytes);
  memtable_bytes_.Set(st.memtable_bytes);
  pending_compaction_bytes_.Set(st.pending_compaction_bytes);
  running_compactions_.Set(st.running_compactions);
  running_flushes_.Set(st.running_flushes);
  write_stopped_.Set(st.write_stopped ? 1 : 0);
  delayed_write_rate_.Set(st.delayed_write_rate_bytes);
  block_cache_usage_.Set(st.block_cache_usage_bytes);
  block_cache_capacity_.Set(st.block_cache_capacity_bytes);
  {
    std::lock_guard lock(tickers_mu_);
    // Tickers restart at zero only with a new store object; never go back.
    if (st.write_stall_seconds > last_stall_seconds_) {
      write_stall_seconds_.Increment(st.write_stall_seconds - last_stall_seconds_);
      last_stall_seconds_ = st.write_stall_seconds;
    }
    if (st.block_cache_hits > last_hits_) {
      block_cache_hits_.Increment(static_cast<double>(st.block_cache_hits - last_hits_));
      last_hits_ = st.block_cache_hits;
    }
    if (st.block_cache_misses > last_misses_) {
      block_cache_misses_.Increment(static_cast<double>(st.block_cache_misses - last_misses_));
      last_misses_ = st.block_cache_misses;
    }
  }
  if (st.has_level_counts) {
    // Puzzles are never deleted, so a (family, level) once seen stays.
    for (const auto& [group, n] : st.puzzles_by_level) {
      store_level_puzzles_.Add({{"family", group.first}, {"level", group.second}})
          .Set(static_cast<double>(n));
    }
  }
}

// ---------------------------------------------------------------- poller

StoreStatsPoller::StoreStatsPoller(storage::Store& store, CoordinatorMetrics& metrics,
                                   StoreStatsPollerOptions options)
    : store_(store), metrics_(metrics), options_(options) {
  Poll();
  thread_ = std::thread([this] { Loop(); });
}

StoreStatsPoller::~StoreStatsPoller() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void StoreStatsPoller::Loop() {
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, options_.interval, [&] { return stopping_; })) {
    lock.unlock();
    Poll();
    lock.lock();
  }
}

void StoreStatsPoller::Poll() {
  using Clock = std::chrono::steady_clock;
  const auto counts = store_.PuzzleCounts();
  const uint64_t total = std::accumulate(counts.begin(), counts.end(), uint64_t{0},
                                         [](uint64_t a, const auto& kv) { return a + kv.second; });
  const auto start = Clock::now();
  const bool count_levels = total != counted_total_ && start >= next_level_count_;
  const storage::StoreStats stats = store_.Stats(count_levels);
  if (count_levels && stats.has_level_counts) {
    counted_total_ = total;
    const auto took = Clock::now() - start;
    next_level_count_ =
        start + std::max<Clock::duration>(
                    options_.min_level_interval,
                    std::chrono::duration_cast<Clock::duration>(took * options_.level_scan_cost_factor));
  }
  metrics_.SetStoreStats(stats);

  auto campaigns = store_.LoadCampaigns();
  if (campaigns.ok()) {
    for (const auto& c : *campaigns) {
      metrics_.SetCampaignRunning(c.id(), c.spec().family(),
                                  c.state() == foundry::v1::CAMPAIGN_STATE_RUNNING);
    }
  }
}

}  // namespace foundry::coordinator
