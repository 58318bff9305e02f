// StoreStats: figures about a store's engine (RocksDB) and its contents, for
// metrics. Returned by Store::Stats(); plain values, no RocksDB types.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace foundry::storage {

struct StoreStats {
  // ---- RocksDB properties, live at the call (summed over column families).
  // rocksdb.estimate-live-data-size: bytes of live data (an estimate).
  double live_data_bytes = 0;
  // rocksdb.total-sst-files-size: bytes of every SST file, obsolete versions
  // included.
  double sst_files_bytes = 0;
  // rocksdb.cur-size-all-mem-tables: bytes in active and unflushed memtables.
  double memtable_bytes = 0;
  // rocksdb.estimate-pending-compaction-bytes: bytes compaction must rewrite
  // to bring every level under its target size. Grows before write stalls.
  double pending_compaction_bytes = 0;
  // rocksdb.num-running-compactions and rocksdb.num-running-flushes.
  double running_compactions = 0;
  double running_flushes = 0;
  // rocksdb.is-write-stopped: writes are stopped now (not merely slowed).
  bool write_stopped = false;
  // rocksdb.actual-delayed-write-rate: bytes/s allowed while writes are
  // slowed down; 0 when they are not.
  double delayed_write_rate_bytes = 0;
  // rocksdb.block-cache-usage and rocksdb.block-cache-capacity of the block
  // cache the column families share.
  double block_cache_usage_bytes = 0;
  double block_cache_capacity_bytes = 0;

  // ---- RocksDB statistics tickers: cumulative since the store was opened.
  // STALL_MICROS, in seconds: time writers spent delayed or stopped.
  double write_stall_seconds = 0;
  // BLOCK_CACHE_HIT and BLOCK_CACHE_MISS.
  uint64_t block_cache_hits = 0;
  uint64_t block_cache_misses = 0;

  // ---- Contents. Filled only when asked for (see Store::Stats).
  bool has_level_counts = false;
  // (family, level) -> stored puzzles.
  std::map<std::pair<std::string, std::string>, uint64_t> puzzles_by_level;
};

}  // namespace foundry::storage
