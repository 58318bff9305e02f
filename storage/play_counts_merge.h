// The merge operator of the `plays` column family: per-puzzle play counts
// updated with RocksDB Merge, without a read-modify-write. Private to storage/.
//
// Value layout (on-disk format, never change it; keys.h lists the column
// family):
//   bytes 0..7    solved    uint64 little-endian
//   bytes 8..15   failed    uint64 little-endian
//   bytes 16..23  solve_ms  uint64 little-endian: total time of the solved
//                           plays, in milliseconds (schema 2)
// Values and operands are 24 bytes; a 16-byte value (schema 1, before play
// times were recorded) reads as solve_ms 0. Merging adds field by field,
// saturating at 2^64-1 (so the operation stays associative and never wraps).
// An operand or value of another size makes the merge fail, which RocksDB
// reports as corruption: only EncodePlayCounts writes to this column family.
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
  uint64_t solve_ms = 0;  // total time of the solved plays

  friend bool operator==(const PlayCounts&, const PlayCounts&) = default;
};

// The operator's registered name. On-disk format: RocksDB records it in the
// OPTIONS file; never rename it.
inline constexpr const char* kPlayCountsMergeOperatorName = "foundry.PlayCountsAdd";

inline constexpr size_t kPlayCountsSize = 24;
inline constexpr size_t kLegacyPlayCountsSize = 16;

// The 24-byte encoding above.
std::string EncodePlayCounts(const PlayCounts& counts);
// nullopt unless `value` is 24 (or legacy 16) bytes.
std::optional<PlayCounts> DecodePlayCounts(std::string_view value);

// `a + b` field by field, saturating.
PlayCounts AddPlayCounts(const PlayCounts& a, const PlayCounts& b);

// The merge step on encoded values: `existing` (nullptr: no value yet, i.e.
// zeros) plus `operand`. nullopt when either is not 24 (or 16) bytes.
std::optional<std::string> MergePlayCounts(const std::string_view* existing,
                                           std::string_view operand);

// A new instance of the operator (an AssociativeMergeOperator over
// MergePlayCounts).
std::shared_ptr<rocksdb::MergeOperator> NewPlayCountsMergeOperator();

}  // namespace foundry::storage
