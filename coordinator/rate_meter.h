// RateMeter: events per second over a sliding window of recent samples.
//
// Thread safety: none; the owner locks.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <utility>

namespace foundry::coordinator {

class RateMeter {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateMeter(std::chrono::seconds window = std::chrono::seconds(10)) : window_(window) {}

  // Records that the running total is `total` at `now`.
  void Record(Clock::time_point now, uint64_t total) {
    samples_.emplace_back(now, total);
    while (samples_.size() > 2 && now - samples_.front().first > window_) samples_.pop_front();
  }

  // Per second between the oldest and newest sample still in the window;
  // 0 when the last sample is older than the window (nothing happening).
  double PerSecond(Clock::time_point now) const {
    if (samples_.size() < 2 || now - samples_.back().first > window_) return 0;
    const double secs =
        std::chrono::duration<double>(samples_.back().first - samples_.front().first).count();
    if (secs <= 0) return 0;
    return static_cast<double>(samples_.back().second - samples_.front().second) / secs;
  }

 private:
  std::chrono::seconds window_;
  std::deque<std::pair<Clock::time_point, uint64_t>> samples_;
};

}  // namespace foundry::coordinator
