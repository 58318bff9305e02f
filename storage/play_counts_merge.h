// The merge operator of the `plays` column family: per-puzzle play counts
// updated with RocksDB Merge, without a read-modify-write. Private to storage/.
//
// Value layout (on-disk format, never change it; keys.h lists the column
// family):
//   bytes 0..7   solved  uint64 little-endian
//   bytes 8..15  failed  uint64 little-endian
// A stored value and every merge operand are exactly 16 bytes. Merging adds
// the pairs field by field, saturating at 2^64-1 (so the operation stays
// associative and never wraps). An operand or value of another size makes the
// merge fail, which RocksDB reports as corruption: only EncodePlayCounts
// writes to this column family.
//
// Thread safety: the operator is stateless; share one instance freely.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rocksdb {
class MergeOperator;
}  // namespace rocksdb

namespace foundry::storage {

struct PlayCounts {
  uint64_t solved = 0;
  uint64_t failed = 0;

  friend bool operator==(const PlayCounts&, const PlayCounts&) = default;
};

// The operator's registered name. On-disk format: RocksDB records it in the
// OPTIONS file; never rename it.
inline constexpr const char* kPlayCountsMergeOperatorName = "foundry.PlayCountsAdd";

inline constexpr size_t kPlayCountsSize = 16;

// The 16-byte encoding above.
std::string EncodePlayCounts(const PlayCounts& counts);
// nullopt unless `value` is exactly 16 bytes.
std::optional<PlayCounts> DecodePlayCounts(std::string_view value);

// `a + b` field by field, saturating.
PlayCounts AddPlayCounts(const PlayCounts& a, const PlayCounts& b);

// The merge step on encoded values: `existing` (nullptr: no value yet, i.e.
// zeros) plus `operand`. nullopt when either is not 16 bytes.
std::optional<std::string> MergePlayCounts(const std::string_view* existing,
                                           std::string_view operand);

// A new instance of the operator (an AssociativeMergeOperator over
// MergePlayCounts).
std::shared_ptr<rocksdb::MergeOperator> NewPlayCountsMergeOperator();

}  // namespace foundry::storage
