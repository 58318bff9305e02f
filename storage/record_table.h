// RecordTable: the puzzle records of a store, kept in the order they were
// written (schema 5).
//
// Two column families: `puzzles` maps each id to an 8-byte record seq, and
// `records` maps the seq (big-endian, so keys sort in write order) to the
// stored Puzzle bytes. Why not the record under its id: ids are hashes, so
// every record a commit writes lands among all the older ones and RocksDB's
// compactions rewrite it again at every level it passes through, which is
// what slowed commits as a store grew (docs/scale.md, "Writes as the store
// grows"). Keyed by seq, a flush's table file sorts after every older one:
// compactions move the files down instead of merging them. Only the small
// id -> seq entries stay in hash order.
//
// Thread safety: reads may run concurrently with anything. Add() and
// Load() must be serialised by the caller (RocksStore holds commit_mu_).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <rocksdb/db.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>

namespace rocksdb {
class WriteBatch;
}  // namespace rocksdb

namespace foundry::storage {

class KeyOrderedBatch;

class RecordTable {
 public:
  // `db`, `ids` (the puzzles column family) and `records` are not owned and
  // must outlive the table.
  RecordTable(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* ids,
              rocksdb::ColumnFamilyHandle* records)
      : db_(db), ids_(ids), records_(records) {}

  // Reads the next seq to give (one past the last record). Called once the
  // store is open, before the first Add.
  rocksdb::Status Load();

  // The record of `id` into `record`. NotFound when the id is not stored;
  // Corruption when its index entry is malformed or names no record.
  rocksdb::Status Get(const rocksdb::ReadOptions& ro, rocksdb::Slice id,
                      rocksdb::PinnableSlice* record) const;

  // Get for each of `n` ids (two MultiGets): statuses[i] as Get's.
  void MultiGet(const rocksdb::ReadOptions& ro, size_t n, const rocksdb::Slice* ids,
                rocksdb::PinnableSlice* records, rocksdb::Status* statuses) const;

  // The seq of `id`: NotFound, Corruption as Get.
  rocksdb::Status SeqOf(const rocksdb::ReadOptions& ro, rocksdb::Slice id, uint64_t* seq) const;

  // Adds `id` = `bytes` to `batch` under the next seq. The caller writes
  // the batch; a batch that is never written leaves only a gap in the seqs.
  // REQUIRES: Load() has run; calls serialised; `id` not stored.
  void Add(KeyOrderedBatch& batch, std::string id, std::string bytes);

  // Adds the removal of `id` (seq `seq`, from SeqOf) to `wb`.
  rocksdb::Status Delete(rocksdb::WriteBatch& wb, rocksdb::Slice id, uint64_t seq) const;

  // As Add, into a plain WriteBatch: for the schema upgrade, which moves
  // records that are already serialised. REQUIRES: as Add.
  rocksdb::Status Append(rocksdb::WriteBatch& wb, rocksdb::Slice id, rocksdb::Slice bytes);

 private:
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* ids_;
  rocksdb::ColumnFamilyHandle* records_;
  uint64_t next_seq_ = 0;
};

}  // namespace foundry::storage
