#include "storage/record_table.h"

#include <memory>
#include <vector>

#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "storage/key_ordered_batch.h"
#include "storage/keys.h"

namespace foundry::storage {

namespace {

rocksdb::Status Malformed(rocksdb::Slice id) {
  return rocksdb::Status::Corruption("puzzle " + id.ToString() + " has a malformed index entry");
}

rocksdb::Status Dangling(rocksdb::Slice id) {
  return rocksdb::Status::Corruption("puzzle " + id.ToString() +
                                     " is indexed but its record is missing");
}

}  // namespace

rocksdb::Status RecordTable::Load() {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), records_));
  it->SeekToLast();
  if (!it->Valid()) {
    next_seq_ = 0;
    return it->status();
  }
  const std::optional<uint64_t> last = keys::DecodeSeq(it->key().ToStringView());
  if (!last) {
    return rocksdb::Status::Corruption("malformed record key " + it->key().ToString(/*hex=*/true));
  }
  next_seq_ = *last + 1;
  return rocksdb::Status::OK();
}

rocksdb::Status RecordTable::SeqOf(const rocksdb::ReadOptions& ro, rocksdb::Slice id,
                                   uint64_t* seq) const {
  rocksdb::PinnableSlice value;
  rocksdb::Status s = db_->Get(ro, ids_, id, &value);
  if (!s.ok()) return s;
  const std::optional<uint64_t> decoded = keys::DecodeSeq(value.ToStringView());
  if (!decoded) return Malformed(id);
  *seq = *decoded;
  return rocksdb::Status::OK();
}

rocksdb::Status RecordTable::Get(const rocksdb::ReadOptions& ro, rocksdb::Slice id,
                                 rocksdb::PinnableSlice* record) const {
  uint64_t seq = 0;
  rocksdb::Status s = SeqOf(ro, id, &seq);
  if (!s.ok()) return s;
  s = db_->Get(ro, records_, keys::EncodeSeq(seq), record);
  return s.IsNotFound() ? Dangling(id) : s;
}

void RecordTable::MultiGet(const rocksdb::ReadOptions& ro, size_t n, const rocksdb::Slice* ids,
                           rocksdb::PinnableSlice* records, rocksdb::Status* statuses) const {
  if (n == 0) return;
  std::vector<rocksdb::PinnableSlice> seqs(n);
  db_->MultiGet(ro, ids_, n, ids, seqs.data(), statuses);
  // The records of the ids found.
  std::vector<std::string> keys;
  std::vector<size_t> at;
  keys.reserve(n);
  at.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!statuses[i].ok()) continue;
    const std::optional<uint64_t> seq = keys::DecodeSeq(seqs[i].ToStringView());
    if (!seq) {
      statuses[i] = Malformed(ids[i]);
      continue;
    }
    keys.push_back(keys::EncodeSeq(*seq));
    at.push_back(i);
  }
  if (keys.empty()) return;
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> found(keys.size());
  db_->MultiGet(ro, records_, keys.size(), slices.data(), values.data(), found.data());
  for (size_t j = 0; j < keys.size(); ++j) {
    const size_t i = at[j];
    statuses[i] = found[j].IsNotFound() ? Dangling(ids[i]) : found[j];
    if (found[j].ok()) records[i] = std::move(values[j]);
  }
}

void RecordTable::Add(KeyOrderedBatch& batch, std::string id, std::string bytes) {
  const uint64_t seq = next_seq_++;
  batch.Put(records_, keys::EncodeSeq(seq), std::move(bytes));
  batch.Put(ids_, std::move(id), keys::EncodeSeq(seq));
}

rocksdb::Status RecordTable::Delete(rocksdb::WriteBatch& wb, rocksdb::Slice id,
                                    uint64_t seq) const {
  rocksdb::Status s = wb.Delete(ids_, id);
  if (s.ok()) s = wb.Delete(records_, keys::EncodeSeq(seq));
  return s;
}

rocksdb::Status RecordTable::Append(rocksdb::WriteBatch& wb, rocksdb::Slice id,
                                    rocksdb::Slice bytes) {
  const std::string key = keys::EncodeSeq(next_seq_++);
  rocksdb::Status s = wb.Put(records_, key, bytes);
  if (s.ok()) s = wb.Put(ids_, id, key);
  return s;
}

}  // namespace foundry::storage
