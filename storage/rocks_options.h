// The RocksDB options of a store: one place, so that everything that opens a
// store's database, or measures what one would cost (bench/fleet_sim_floor),
// opens it the same way. Column families are those of keys.h (kAllCfs), in
// that order.
#pragma once

#include <vector>

#include <rocksdb/db.h>  // ColumnFamilyDescriptor
#include <rocksdb/options.h>

#include "storage/store.h"

namespace foundry::storage {

// The database-wide options: `create` creates a missing database and its
// column families; memtable and WAL bounds, write-back pacing, LOG rotation
// and ticker statistics as the store runs with them; `options.row_cache_bytes`
// and `options.max_wal_bytes` applied.
rocksdb::DBOptions StoreDbOptions(bool create, const StoreOptions& options);

// One descriptor per column family of the store, in keys::kAllCfs order,
// sharing one block cache of `options.block_cache_bytes`: memtable sizes,
// compression (LZ4 below level 0 when RocksDB has it), Bloom filters where
// point lookups read, and the plays merge operator.
std::vector<rocksdb::ColumnFamilyDescriptor> StoreColumnFamilies(const StoreOptions& options);

}  // namespace foundry::storage
