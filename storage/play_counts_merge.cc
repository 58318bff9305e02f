#include "storage/play_counts_merge.h"

#include <limits>

#include <rocksdb/merge_operator.h>
#include <rocksdb/slice.h>

namespace foundry::storage {

namespace {

void PutFixed64LE(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetFixed64LE(std::string_view in) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[i]);
  return v;
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  const uint64_t sum = a + b;
  return sum < a ? std::numeric_limits<uint64_t>::max() : sum;
}

class PlayCountsMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing_value,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    std::string_view existing_view;
    if (existing_value != nullptr) existing_view = existing_value->ToStringView();
    std::optional<std::string> merged =
        MergePlayCounts(existing_value != nullptr ? &existing_view : nullptr, value.ToStringView());
    if (!merged) return false;  // RocksDB turns this into Status::Corruption
    *new_value = std::move(*merged);
    return true;
  }

  const char* Name() const override { return kPlayCountsMergeOperatorName; }
};

}  // namespace

std::string EncodePlayCounts(const PlayCounts& counts) {
  std::string out;
  out.reserve(kPlayCountsSize);
  PutFixed64LE(out, counts.solved);
  PutFixed64LE(out, counts.failed);
  PutFixed64LE(out, counts.solve_ms);
  return out;
}

std::optional<PlayCounts> DecodePlayCounts(std::string_view value) {
  if (value.size() != kPlayCountsSize && value.size() != kLegacyPlayCountsSize) return std::nullopt;
  return PlayCounts{GetFixed64LE(value.substr(0, 8)), GetFixed64LE(value.substr(8, 8)),
                    value.size() == kPlayCountsSize ? GetFixed64LE(value.substr(16, 8)) : 0};
}

PlayCounts AddPlayCounts(const PlayCounts& a, const PlayCounts& b) {
  return PlayCounts{SaturatingAdd(a.solved, b.solved), SaturatingAdd(a.failed, b.failed),
                    SaturatingAdd(a.solve_ms, b.solve_ms)};
}

std::optional<std::string> MergePlayCounts(const std::string_view* existing,
                                           std::string_view operand) {
  std::optional<PlayCounts> delta = DecodePlayCounts(operand);
  if (!delta) return std::nullopt;
  PlayCounts base;
  if (existing != nullptr) {
    std::optional<PlayCounts> decoded = DecodePlayCounts(*existing);
    if (!decoded) return std::nullopt;
    base = *decoded;
  }
  return EncodePlayCounts(AddPlayCounts(base, *delta));
}

std::shared_ptr<rocksdb::MergeOperator> NewPlayCountsMergeOperator() {
  return std::make_shared<PlayCountsMergeOperator>();
}

}  // namespace foundry::storage
