// IdleWatch: how long a worker has gone without a job, for
// `foundry-worker --exit-when-idle` (a batch job's worker that would
// otherwise hold its allocation after the campaign ended).
//
// Idle means no lease loop holds a job: every Lease since the last job came
// back empty or the coordinator could not be reached. Time spent running a
// job never counts; time spent failing to submit a finished job to a
// coordinator that cannot be reached does (LeaseLoop ends the job for
// IdleWatch at the first such failure).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <mutex>

namespace foundry::worker {

class IdleWatch {
 public:
  using Clock = std::chrono::steady_clock;

  // Idle from now on.
  IdleWatch() : idle_since_(Clock::now()) {}

  // A loop took a job: not idle until every loop's job has ended.
  void JobStarted() {
    std::lock_guard lock(mu_);
    ++busy_;
  }

  // A loop's job ended (submitted, dropped or cancelled).
  void JobEnded() {
    std::lock_guard lock(mu_);
    if (busy_ > 0 && --busy_ == 0) idle_since_ = Clock::now();
  }

  // Whether no loop has had a job for at least `limit` as of `now`.
  bool IdleFor(std::chrono::milliseconds limit, Clock::time_point now = Clock::now()) const {
    std::lock_guard lock(mu_);
    return busy_ == 0 && now - idle_since_ >= limit;
  }

 private:
  mutable std::mutex mu_;
  int busy_ = 0;
  Clock::time_point idle_since_;
};

}  // namespace foundry::worker
