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
// positives) and to the memtable, for column families read by point lookups;
// `random_keys` says that its writes land all over its key space (see the
// L0 trigger below).
rocksdb::ColumnFamilyOptions MakeCfOptions(size_t write_buffer, bool bloom, bool random_keys,
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
  if (random_keys) {
    // Every flushed file then spans the key space, so a levelled merge into
    // the base level rewrites the whole of it. Universal compaction merges
    // sorted runs of similar size instead, so each key is rewritten fewer
    // times as the store grows (docs/scale.md, "Universal compaction for
    // random keys"). A merge starts at eight sorted runs (RocksDB's default
    // is 4: fewer, larger merges); writes slow down and stop as many runs
    // past that as with RocksDB's defaults (20 and 36 for 4); point reads
    // check up to eight runs' Bloom filters. Stores written with levelled
    // compaction open as they are, and the other way round (tried on 10 M
    // stores, docs/scale.md; tests/unit/storage/compaction_style_test.cc).
    cf.compaction_style = rocksdb::kCompactionStyleUniversal;
    cf.level0_file_num_compaction_trigger = 8;
    cf.level0_slowdown_writes_trigger = 24;
    cf.level0_stop_writes_trigger = 40;
  }
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  // Index and filter blocks live in the block cache, not beside each open
  // table file, so that the store's memory is bounded by the cache's size
  // and not by the number of puzzles (docs/scale.md, "A store that
  // grows"). Partitioned, so a lookup loads the 4 KiB partitions it needs;
  // only the small top-level blocks and L0's (the newest puzzles, which the
  // duplicate check hits first) stay pinned.
  table.cache_index_and_filter_blocks = true;
  table.cache_index_and_filter_blocks_with_high_priority = true;
  table.pin_l0_filter_and_index_blocks_in_cache = true;
  table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.partition_filters = true;
  table.pin_top_level_index_and_filter = true;
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
    if (name == keys::kRecordsCf) {
      // The bulk of the data, written in key order (record_table.h): a large
      // memtable; no Bloom filter, since the table files of a level do not
      // overlap and a lookup reads the one whose range holds the seq.
      cf = MakeCfOptions(64 * kMiB, /*bloom=*/false, /*random_keys=*/false, cache, compression);
    } else if (name == keys::kPuzzlesCf) {
      // id -> seq, the target of dedup's MultiGet of mostly absent ids: a
      // Bloom filter.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/true, /*random_keys=*/true, cache, compression);
    } else if (name == keys::kCampaignMembersCf) {
      // Written as often as puzzles (small entries); Commit checks members
      // for existence by point lookup.
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/true, /*random_keys=*/false, cache, compression);
    } else if (name == keys::kByScoreCf || name == keys::kByCreatedCf || name == keys::kByDrawCf) {
      // Written as often as puzzles; read by range scans (and by_draw by a
      // seek per draw). by_score's keys are scores; by_draw's run in order
      // within each (family, level), but a memtable holds every group of a
      // family, so its L0 files span the family like random keys; only
      // by_created is written in key order (time). A small memtable here
      // makes merges into the base level frequent (docs/scale.md).
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/false, /*random_keys=*/name != keys::kByCreatedCf,
                         cache, compression);
    } else if (name == keys::kPlaysCf) {
      cf = MakeCfOptions(16 * kMiB, /*bloom=*/true, /*random_keys=*/false, cache, compression);
      cf.merge_operator = NewPlayCountsMergeOperator();
    } else if (name == keys::kDefaultCf) {
      // The meta keys and the players' keys (storage/player_keys.h), read by
      // point lookups that mostly miss: has this player been served or
      // played this puzzle, has this puzzle a rating, was this play_id seen.
      // A game server writes here eight keys a play and one a NextPuzzle:
      // the memtable of the index CFs written per puzzle, since every merge of L0
      // into the base level rewrites all of it (docs/players.md, "Player
      // writes and compactions").
      cf = MakeCfOptions(32 * kMiB, /*bloom=*/true, /*random_keys=*/false, cache, compression);
    } else {
      // campaigns (a handful of small records) and by_family (empty since
      // schema 3).
      cf = MakeCfOptions(4 * kMiB, /*bloom=*/false, /*random_keys=*/false, cache, compression);
    }
    cfs.emplace_back(std::string(name), cf);
  }
  return cfs;
}

}  // namespace foundry::storage
