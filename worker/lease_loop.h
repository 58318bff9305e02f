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
#include <future>
#include <string>

#include "worker/coordinator_notices.h"
#include "worker/forgery.h"
#include "worker/idle_watch.h"
#include "worker/job_executor.h"
#include "worker/job_source.h"
#include "worker/worker_metrics.h"

namespace foundry::worker {

struct LeaseLoopOptions {
  // Sent with every request; identifies this worker process.
  std::string worker_id;
  // Sent with every request; the secret that holds worker_id at the
  // coordinator (LeaseRequest.worker_key). One per process, shared by its
  // loops; empty sends none.
  std::string worker_key;
  // Backoff after a failed request: doubles from min to max, with jitter.
  std::chrono::milliseconds backoff_min{100};
  std::chrono::milliseconds backoff_max{5000};
  // Stop when the source has no job (used by `foundry run`, whose campaign
  // is over when no job is left).
  bool stop_when_idle = false;
  // Sent with every Lease; empty means puzzles::GenerationFingerprint().
  std::string generation_fingerprint;
  std::string build;
  // When set, lease only this campaign's jobs and return once it has ended.
  std::string campaign_id;
  // Told when a job starts and ends (--exit-when-idle). Not owned; may be null.
  // A finished job whose submission cannot reach the coordinator counts as
  // ended: a worker waiting on a coordinator that is gone is idle.
  IdleWatch* idle = nullptr;
  // When it turns true (the worker leaves for being idle), a submission that
  // cannot reach the coordinator is dropped instead of retried: its lease
  // lapses and the job runs again elsewhere. Not owned; may be null.
  const std::atomic<bool>* abandon_submissions = nullptr;
  // Where the loop tells that the coordinator is unreachable, reachable
  // again, or refuses it; loops of one process share one, so each is told
  // once. Not owned; null: the loop tells its own.
  CoordinatorNotices* notices = nullptr;
  // Tests only (worker/forgery.h): lie in this way. Not owned; may be null.
  Forgery* forgery = nullptr;
};

class LeaseLoop {
 public:
  // `source`, `executor` and `metrics` (nullable) must outlive the loop.
  LeaseLoop(JobSource& source, JobExecutor& executor, WorkerMetrics* metrics,
            LeaseLoopOptions options);

  // Runs until `stop` is raised (checked at least every 10 ms; a job in
  // progress is cancelled and its lease handed back at once, so that another
  // worker takes it without waiting for the lease to lapse), or, with
  // stop_when_idle, until a lease finds no job, or, with campaign_id, until
  // that campaign has ended.
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

  // Whether Run() returned because options.campaign_id has ended.
  bool campaign_ended() const { return campaign_ended_; }

 private:
  // Runs one leased job: generate (or verify), heartbeat, submit.
  void RunJob(const foundry::v1::Job& job, const std::atomic<bool>& stop);
  // Waits until `pending` is ready, heartbeating `job`'s lease every
  // HeartbeatInterval meanwhile; looks at `stopping()` every 10 ms and stops
  // waiting when it says true, or when `beaten(beat)` says false.
  template <typename T, typename Stopping, typename Beaten>
  void AwaitWithHeartbeats(const foundry::v1::Job& job, std::future<T>& pending, Stopping stopping,
                           Beaten beaten);
  // Runs `work` (returning an output with `cancelled`) while heartbeating
  // `job`'s lease; raises `cancel` when the lease is lost or `stop` is raised.
  // Returns the outcome word for metrics.
  template <typename Output, typename Work>
  Output RunWithHeartbeats(const foundry::v1::Job& job, const std::atomic<bool>& stop,
                           std::atomic<bool>& cancel, std::string& outcome, Work work);
  // Sends one heartbeat for `job`'s lease.
  Result<foundry::v1::HeartbeatResponse> Beat(const foundry::v1::Job& job);
  // Submits `chunks`, retrying while the coordinator is away, and
  // heartbeats the lease while a Submit takes longer than the heartbeat
  // interval: a slow upload, or an in-process Submit waiting for an executor
  // thread behind other jobs, must not let the lease lapse.
  bool SubmitWithRetry(const foundry::v1::Job& job,
                       const std::vector<foundry::v1::ResultChunk>& chunks,
                       const std::atomic<bool>& stop);
  // Hands `job`'s lease back (the worker stops); logs a failure, which only
  // means the lease will lapse instead.
  void ReleaseLease(const foundry::v1::Job& job);
  // Whether a failed Lease's message says that this worker can never talk
  // to the coordinator (its certificate is not trusted or names another
  // host), counting repeats: retrying a TLS verification failure is a hang.
  bool PermanentTransportFailure(const Status& status);
  // Sleeps up to `d`, waking early when `stop` (or `also`, if set) is raised.
  static void SleepFor(std::chrono::milliseconds d, const std::atomic<bool>& stop,
                       const std::atomic<bool>* also = nullptr);
  // Tells options_.idle that the current job has ended, once per job.
  void ReleaseIdle();
  std::chrono::milliseconds NextBackoff();

  JobSource& source_;
  JobExecutor& executor_;
  WorkerMetrics* metrics_;
  LeaseLoopOptions options_;
  std::chrono::milliseconds backoff_{0};
  uint64_t jitter_state_;
  uint64_t jobs_completed_ = 0;
  std::string refused_;
  bool campaign_ended_ = false;
  int tls_failures_ = 0;            // consecutive
  bool idle_released_ = true;       // the current job's end was told to options_.idle
  CoordinatorNotices own_notices_;  // used when options_.notices is null
};

}  // namespace foundry::worker
