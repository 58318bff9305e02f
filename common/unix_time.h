// The wall clock as stored and sent: milliseconds since the Unix epoch.
#pragma once

#include <chrono>
#include <cstdint>

namespace foundry {

inline int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace foundry
