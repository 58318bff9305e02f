#include "storage/rocks_options.h"

#include <memory>
#include <string>
#include <string_view>

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

#include "storage/keys.h"
#include "storage/play_counts_merge.h"

namespace foundry::storage {
namespace {

// LZ4 when this RocksDB build has it (Debian's does), else none: puzzle JSON
// compresses well and LZ4 costs little CPU on a write-heavy store.
rocksdb::CompressionType PickCompression() {
  for (rocksdb::CompressionType type : rocksdb::GetSupportedCompressions()) {
    if (type == rocksdb::kLZ4Compression) return type;
  }
  return rocksdb::kNoCompression;
}

// One column family's options. `write_buffer` is its memtable size; `bloom`
// adds whole-key Bloom filters, to the table files (10 bits/key, ~1% false
// positives) and to the memtable, for column families read by point lookups.
rocksdb::ColumnFamilyOptions MakeCfOptions(size_t write_buffer, bool bloom,
                                           const std::shared_ptr<rocksdb::Cache>& cache,
                                           rocksdb::CompressionType compression) {
  rocksdb::ColumnFamilyOptions cf;
  cf.write_buffer_size = write_buffer;
  cf.max_write_buffer_number = 3;  // keep accepting writes while one flushes
  cf.compression = compression;
  // Flushes write L0 uncompressed: every L0 file is rewritten by the next
  // compaction anyway, so compressing it there was paid twice (compress at
  // flush, decompress and compress again at compaction); LZ4 in a flush was
  // the largest single cost of a commit (docs/scale.md). Lower levels, where
  // data stays, are compressed. (With dynamic level bytes, entries past 0
  // apply from the base level down.)
  cf.compression_per_level.assign(7, compression);
  cf.compression_per_level[0] = rocksdb::kNoCompression;
  // Level sizes follow the data: lower space amplification as the store grows.
  cf.level_compaction_dynamic_level_bytes = true;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  if (bloom) {
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    // The same for the memtable: a commit's duplicate check looks up ids and
    // member keys that are almost never there, and without a filter each
    // miss is a full skiplist search (docs/store.md). 2% of the memtable is
    // 16+ bits per entry here.
    cf.memtable_prefix_bloom_size_ratio = 0.02;
    cf.memtable_whole_key_filtering = true;
  }
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

}  // namespace

rocksdb::DBOptions StoreDbOptions(bool create, const StoreOptions& options) {
  rocksdb::DBOptions db;
  db.create_if_missing = create;
  db.create_missing_column_families = create;
  // Existing stores must hold exactly our column families (checked before
  // the read-write open), so a missing one is never created silently.
  db.paranoid_checks = true;
  // Memtables of all column families together; beyond this RocksDB flushes
  // the largest. Bounds memory whatever the per-CF sizes below.
  db.db_write_buffer_size = 256u << 20;
  // Every log stays alive until each column family with writes in it has
  // flushed, and the small ones (campaigns, meta) fill their memtables
  // rarely; RocksDB's default bound (4x all memtables, ~2.5 GB here) let the
  // logs grow to gigabytes and made every open replay them.
  db.max_total_wal_size = options.max_wal_bytes;
  if (options.row_cache_bytes > 0) db.row_cache = rocksdb::NewLRUCache(options.row_cache_bytes);
  // A store must open on a full disk, to serve reads and to take commits
  // again once space returns: the writes replayed from the logs stay in
  // memtables (the logs are kept until they are flushed) instead of being
  // flushed into new table files during the open.
  db.avoid_flush_during_recovery = true;
  // Smooth out write-back instead of large bursts at file close.
  db.bytes_per_sync = 1u << 20;
  // Diagnostic LOG files in the store directory: keep a few.
  db.keep_log_file_num = 5;
  db.max_log_file_size = 16u << 20;
  // The WAL is on (the default; never set WriteOptions::disableWAL): a
  // Commit that returned survives a process crash.
  // Tickers only (write stall time, block cache hits and misses, for
  // Stats()): no histograms or timers, so the cost is a few relaxed atomic
  // increments per operation.
  db.statistics = rocksdb::CreateDBStatistics();
  db.statistics->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
  return db;
}

std::vector<rocksdb::ColumnFamilyDescriptor> StoreColumnFamilies(const StoreOptions& options) {
  // One block cache shared by the column families of the store.
  std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  const rocksdb::CompressionType compression = PickCompression();
  constexpr size_t kMiB = 1u << 20;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (std::string_view name : keys::kAllCfs) {
    rocksdb::ColumnFamilyOptions cf;
    if (name == keys::kPuzzlesCf) {
      // The bulk of the data, and the target of dedup's MultiGet of mostly
      // absent ids: a large memtable and a Bloom filter.
      cf = MakeCfOptions(64 * kMiB, /*bloom=*/true, cache, compression);
    } else if (name == keys::kCampaignMembersCf) {
      // Written as often as puzzles (small entries); Commit checks members
      // for existence by point lookup.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/true, cache, compression);
    } else if (name == keys::kByScoreCf || name == keys::kByCreatedCf) {
      // Written as often as puzzles; read by range scans only.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/false, cache, compression);
    } else if (name == keys::kPlaysCf) {
      cf = MakeCfOptions(16 * kMiB, /*bloom=*/true, cache, compression);
      cf.merge_operator = NewPlayCountsMergeOperator();
    } else {
      // default (the meta key), campaigns (a handful of small records) and
      // by_family (empty since schema 3).
      cf = MakeCfOptions(4 * kMiB, /*bloom=*/false, cache, compression);
    }
    cfs.emplace_back(std::string(name), cf);
  }
  return cfs;
}

}  // namespace foundry::storage
