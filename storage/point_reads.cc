#include "storage/point_reads.h"

#include "storage/rocks_util.h"

namespace foundry::storage {

size_t PointReads::Add(rocksdb::ColumnFamilyHandle* cf, std::string key) {
  cfs_.push_back(cf);
  keys_.push_back(std::move(key));
  return keys_.size() - 1;
}

Status PointReads::Run(rocksdb::DB& db, const std::string& dir, std::string_view what) {
  // The slices are made only now: adding keys may have moved the strings.
  std::vector<rocksdb::Slice> slices(keys_.begin(), keys_.end());
  values_ = std::vector<rocksdb::PinnableSlice>(keys_.size());
  statuses_.assign(keys_.size(), rocksdb::Status());
  if (keys_.empty()) return Status::Ok();
  db.MultiGet(rocksdb::ReadOptions(), keys_.size(), cfs_.data(), slices.data(), values_.data(),
              statuses_.data());
  for (const rocksdb::Status& s : statuses_) {
    if (!s.ok() && !s.IsNotFound()) return FromRocks(s, dir, what);
  }
  return Status::Ok();
}

}  // namespace foundry::storage
