// JobTimes: how long a campaign's recent jobs of one kind took, from lease to
// submission, so that a lease held far longer than its peers can be told
// apart from a job that is merely slow.
//
// Thread safety: none; the owner locks.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>

namespace foundry::coordinator {

class JobTimes {
 public:
  using Duration = std::chrono::steady_clock::duration;

  // Records one job's time; the oldest of the last kKept falls out.
  void Add(Duration d) {
    kept_[next_ % kKept] = d;
    ++next_;
  }

  // How many times are kept (at most 16).
  size_t count() const { return std::min(next_, kKept); }

  // The median of the recorded times; zero before the first.
  Duration Median() const {
    const size_t n = count();
    if (n == 0) return Duration::zero();
    std::array<Duration, kKept> sorted = kept_;
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.begin() + n);
    return sorted[n / 2];
  }

 private:
  static constexpr size_t kKept = 16;
  std::array<Duration, kKept> kept_{};
  size_t next_ = 0;
};

}  // namespace foundry::coordinator
