// LeaseLoop: a worker's life — lease a job, run it while heartbeating, submit
// the output, repeat — with reconnection (exponential backoff with jitter)
// when the coordinator is away.
//
// Thread safety: one LeaseLoop per thread; several loops may share one
// JobSource and one JobExecutor so that one job's submission overlaps the
// next job's generation.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "worker/forgery.h"
#include "worker/job_executor.h"
#include "worker/job_source.h"
#include "worker/worker_metrics.h"

namespace foundry::worker {

struct LeaseLoopOptions {
  // Sent with every request; identifies this worker process.
  std::string worker_id;
  // Backoff after a failed request: doubles from min to max, with jitter.
  std::chrono::milliseconds backoff_min{100};
  std::chrono::milliseconds backoff_max{5000};
  // Stop when the source has no job (used by `foundry run`, whose campaign
  // is over when no job is left).
  bool stop_when_idle = false;
  // Sent with every Lease; empty means puzzles::GenerationFingerprint().
  std::string generation_fingerprint;
  std::string build;
  // Tests only (worker/forgery.h): lie in this way. Not owned; may be null.
  Forgery* forgery = nullptr;
};

class LeaseLoop {
 public:
  // `source`, `executor` and `metrics` (nullable) must outlive the loop.
  LeaseLoop(JobSource& source, JobExecutor& executor, WorkerMetrics* metrics,
            LeaseLoopOptions options);

  // Runs until `stop` is raised (checked at least every 100 ms; a job in
  // progress is abandoned and its lease left to lapse) or, with
  // stop_when_idle, until a lease finds no job.
  void Run(const std::atomic<bool>& stop) { Run(stop, stop); }

  // As Run(stop), and when `drain` is raised, leases no new job but finishes
  // and submits the one in progress before returning: a graceful shutdown
  // that hands its work in rather than letting the lease lapse.
  void Run(const std::atomic<bool>& drain, const std::atomic<bool>& stop);

  // Jobs this loop submitted and the coordinator accepted.
  uint64_t jobs_completed() const { return jobs_completed_; }

  // Why the coordinator refused this worker for good (a generation
  // fingerprint it does not share, or a quarantine); empty while it was not.
  // Run() returns when that happens.
  const std::string& refused() const { return refused_; }

 private:
  // Runs one leased job: generate (or verify), heartbeat, submit.
  void RunJob(const foundry::v1::Job& job, const std::atomic<bool>& stop);
  // Runs `work` (returning an output with `cancelled`) while heartbeating
  // `job`'s lease; raises `cancel` when the lease is lost or `stop` is raised.
  // Returns the outcome word for metrics.
  template <typename Output, typename Work>
  Output RunWithHeartbeats(const foundry::v1::Job& job, const std::atomic<bool>& stop,
                           std::atomic<bool>& cancel, std::string& outcome, Work work);
  // Submits `chunks`, retrying while the coordinator is away.
  bool SubmitWithRetry(const foundry::v1::Job& job, const std::vector<foundry::v1::ResultChunk>& chunks,
                       const std::atomic<bool>& stop);
  // Sleeps up to `d`, waking early when `stop` is raised.
  static void SleepFor(std::chrono::milliseconds d, const std::atomic<bool>& stop);
  std::chrono::milliseconds NextBackoff();

  JobSource& source_;
  JobExecutor& executor_;
  WorkerMetrics* metrics_;
  LeaseLoopOptions options_;
  std::chrono::milliseconds backoff_{0};
  uint64_t jitter_state_;
  uint64_t jobs_completed_ = 0;
  std::string refused_;
};

}  // namespace foundry::worker
