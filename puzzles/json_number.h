// Reading integers out of puzzle JSON strictly: JSON integers only (no
// floats, no strings), signed or unsigned, within a range. Shared by the
// families' codecs so that "7.0", "7" and 2^64 are refused the same way
// everywhere.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

namespace foundry::puzzles {

// `v` as an integer in [lo, hi], or nullopt.
inline std::optional<int64_t> IntInRange(const nlohmann::json& v, int64_t lo, int64_t hi) {
  int64_t x = 0;
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    x = static_cast<int64_t>(u);
  } else if (v.is_number_integer()) {
    x = v.get<int64_t>();
  } else {
    return std::nullopt;
  }
  if (x < lo || x > hi) return std::nullopt;
  return x;
}

}  // namespace foundry::puzzles
