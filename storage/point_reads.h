// PointReads: the point lookups of one request, gathered into one RocksDB
// MultiGet. Private to storage/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/db.h>

#include "common/status.h"

namespace foundry::storage {

// For a caller that knows its keys before it needs their values: one
// MultiGet takes the read view once and visits each level once for all the
// keys, where as many Gets pay both per key. Add the keys, Run, then read
// the slots. Not thread-safe; one request's reads.
class PointReads {
 public:
  // Adds a lookup of `key` in `cf` and returns its slot.
  size_t Add(rocksdb::ColumnFamilyHandle* cf, std::string key);

  // The key of `slot`, as added.
  const std::string& Key(size_t slot) const { return keys_[slot]; }

  // How many lookups have been added.
  size_t size() const { return keys_.size(); }

  // Looks up every key added. Ok when each was found or not found; else
  // the first other error, saying `what` was being read in store `dir`.
  Status Run(rocksdb::DB& db, const std::string& dir, std::string_view what);

  // After an ok Run: whether the key of `slot` was found, and its value
  // (valid until this object is destroyed).
  bool Found(size_t slot) const { return statuses_[slot].ok(); }
  std::string_view Value(size_t slot) const { return values_[slot].ToStringView(); }

 private:
  std::vector<rocksdb::ColumnFamilyHandle*> cfs_;
  std::vector<std::string> keys_;
  std::vector<rocksdb::PinnableSlice> values_;
  std::vector<rocksdb::Status> statuses_;
};

}  // namespace foundry::storage
