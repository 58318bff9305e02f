// ParseDuration: a command-line duration such as "500ms", "5s", "10m", "2h"
// or a plain number of seconds ("30", "1.5").
#pragma once

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <string>
#include <string_view>

#include "common/status.h"

namespace foundry {

// InvalidArgument naming `text` and the accepted forms when it is not a
// non-negative number followed by an optional unit (ms, s, m, h).
inline Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a duration: a number with ms, s, m or h (e.g. 500ms, "
                                   "30s, 10m, 2h; no unit means seconds)");
  };
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    ++digits;
  }
  if (digits == 0) return bad();
  // std::from_chars for double is in GCC 12's libstdc++.
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + digits, value);
  if (ec != std::errc() || end != text.data() + digits || !std::isfinite(value)) return bad();
  const std::string_view unit = text.substr(digits);
  double ms_per_unit = 0;
  if (unit.empty() || unit == "s") {
    ms_per_unit = 1000;
  } else if (unit == "ms") {
    ms_per_unit = 1;
  } else if (unit == "m") {
    ms_per_unit = 60'000;
  } else if (unit == "h") {
    ms_per_unit = 3'600'000;
  } else {
    return bad();
  }
  const double ms = value * ms_per_unit;
  if (ms > 1e15) return bad();  // past any walltime; also keeps the cast defined
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

}  // namespace foundry
