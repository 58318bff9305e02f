#include "storage/key_ordered_batch.h"

#include <algorithm>
#include <utility>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

namespace foundry::storage {

void KeyOrderedBatch::Put(rocksdb::ColumnFamilyHandle* cf, std::string key, std::string value) {
  entries_.push_back({cf->GetID(), cf, std::move(key), std::move(value)});
}

rocksdb::Status KeyOrderedBatch::WriteTo(rocksdb::WriteBatch* wb) {
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.cf_id != b.cf_id ? a.cf_id < b.cf_id : a.key < b.key;
  });
  for (const Entry& e : entries_) {
    rocksdb::Status s = wb->Put(e.cf, e.key, e.value);
    if (!s.ok()) return s;
  }
  return rocksdb::Status::OK();
}

}  // namespace foundry::storage
