// SubmissionBudget: the bytes of job submissions the coordinator holds at
// once, all streams together. A submission is kept whole until its job is
// settled, and each lease bounds its own (Coordinator::SubmissionBoundFor),
// but a worker holding many leases could still stream them all at once.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>

namespace foundry::coordinator {

class SubmissionBudget {
 public:
  explicit SubmissionBudget(size_t limit) : limit_(limit) {}

  // Takes `bytes` when the bytes held stay within the limit; false, taking
  // nothing, when they would not.
  bool Take(size_t bytes) {
    size_t held = held_.load(std::memory_order_relaxed);
    do {
      if (bytes > limit_ - held) return false;
    } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
    return true;
  }

  // Gives back bytes taken before.
  void Give(size_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }

  size_t limit() const { return limit_; }
  size_t held() const { return held_.load(std::memory_order_relaxed); }

 private:
  const size_t limit_;
  std::atomic<size_t> held_{0};
};

}  // namespace foundry::coordinator
