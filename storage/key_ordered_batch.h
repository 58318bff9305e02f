// KeyOrderedBatch: the puts of one commit, handed to a rocksdb::WriteBatch
// in key order within each column family.
//
// Why: RocksDB inserts a batch into each column family's memtable (a skip
// list) one entry after the other. Ids are hashes, so a commit's keys in
// candidate order land all over the memtable and every insert searches it
// from the top, missing the cache at most levels. In key order,
// consecutive searches share the upper part of their path, which is still
// in the cache (docs/store.md, "What one stored puzzle costs").
//
// The order changes nothing else: a WriteBatch is applied atomically, and a
// commit never puts one key twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <rocksdb/status.h>

namespace rocksdb {
class ColumnFamilyHandle;
class WriteBatch;
}  // namespace rocksdb

namespace foundry::storage {

class KeyOrderedBatch {
 public:
  // Remembers a put of `key` = `value` into `cf` (not owned; must outlive
  // WriteTo). Putting the same key twice into one cf is the caller's error:
  // which value wins is then unspecified.
  void Put(rocksdb::ColumnFamilyHandle* cf, std::string key, std::string value);

  // Appends every put to `wb`: column family by column family, each one's
  // keys in ascending bytewise order (the store's comparator). The first
  // error of WriteBatch::Put, if any.
  rocksdb::Status WriteTo(rocksdb::WriteBatch* wb);

 private:
  struct Entry {
    uint32_t cf_id;  // cf->GetID(), kept: the sort compares it often
    rocksdb::ColumnFamilyHandle* cf;
    std::string key;
    std::string value;
  };
  std::vector<Entry> entries_;
};

}  // namespace foundry::storage
