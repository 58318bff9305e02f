#include "worker/lease_loop.h"

#include <algorithm>
#include <future>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "puzzles/fingerprint.h"
#include "puzzles/registry.h"
#include "puzzles/rng.h"
#include "worker/result_chunks.h"

namespace foundry::worker {

using namespace std::chrono_literals;

namespace {

// How often a waiting loop looks at its stop flags: a stopping process (the
// end of a `foundry run`) waits for its loops, and a wake-up costs
// microseconds.
constexpr std::chrono::milliseconds kStopPoll = 10ms;

// How often `job`'s lease is heartbeated: as the coordinator asked, at most
// 20 times a second.
std::chrono::milliseconds HeartbeatInterval(const foundry::v1::Job& job) {
  return std::chrono::milliseconds(std::max<uint32_t>(job.heartbeat_interval_ms(), 50));
}

}  // namespace

LeaseLoop::LeaseLoop(JobSource& source, JobExecutor& executor, WorkerMetrics* metrics,
                     LeaseLoopOptions options)
    : source_(source),
      executor_(executor),
      metrics_(metrics),
      options_(std::move(options)),
      jitter_state_(puzzles::SplitMix64(
          static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
          std::hash<std::string>{}(options_.worker_id))) {}

void LeaseLoop::SleepFor(std::chrono::milliseconds d, const std::atomic<bool>& stop,
                         const std::atomic<bool>* also) {
  // Woken every kStopPoll to look at the flags, as AwaitWithHeartbeats is.
  const auto until = std::chrono::steady_clock::now() + d;
  while (!stop.load() && !(also != nullptr && also->load()) &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        kStopPoll, until - std::chrono::steady_clock::now()));
  }
}

std::chrono::milliseconds LeaseLoop::NextBackoff() {
  backoff_ =
      backoff_.count() == 0 ? options_.backoff_min : std::min(backoff_ * 2, options_.backoff_max);
  // Full jitter in [backoff/2, backoff]: workers restarted together do not
  // reconnect in lockstep.
  jitter_state_ = puzzles::SplitMix64(jitter_state_);
  const auto half = backoff_.count() / 2;
  return std::chrono::milliseconds(half + static_cast<int64_t>(jitter_state_ % (half + 1)));
}

void LeaseLoop::Run(const std::atomic<bool>& drain, const std::atomic<bool>& stop) {
  CoordinatorNotices& notices = options_.notices != nullptr ? *options_.notices : own_notices_;
  bool reported_down = false;  // this loop told `notices` Down
  while (!stop.load() && !drain.load()) {
    foundry::v1::LeaseRequest req;
    req.set_worker_id(options_.worker_id);
    req.set_worker_key(options_.worker_key);
    req.set_threads(static_cast<uint32_t>(executor_.threads()));
    req.set_generation_fingerprint(options_.generation_fingerprint.empty()
                                       ? puzzles::GenerationFingerprint()
                                       : options_.generation_fingerprint);
    req.set_build(options_.build);
    req.set_campaign_id(options_.campaign_id);
    auto lease = source_.Lease(req);
    if (!lease.ok()) {
      const auto code = lease.status().code();
      if (code == Status::Code::kFailedPrecondition || code == Status::Code::kPermissionDenied ||
          code == Status::Code::kNotFound || code == Status::Code::kInvalidArgument) {
        // Refused for good (another generation fingerprint, a quarantine, a
        // token that may not run jobs, a campaign it does not know, a
        // worker id it will not take): retrying cannot help.
        refused_ = lease.status().message();
        notices.Refused("the coordinator refuses this worker: " + refused_);
        return;
      }
      if (PermanentTransportFailure(lease.status())) {
        refused_ = fmt::format("TLS: the coordinator's certificate failed verification ({})",
                               lease.status().message());
        notices.Refused(refused_);
        return;
      }
      if (!reported_down) {
        // ABORTED: this worker id is held by another process, for now;
        // RESOURCE_EXHAUSTED: the coordinator keeps as many workers as it
        // may, all active.
        if (code == Status::Code::kAborted || code == Status::Code::kResourceExhausted) {
          notices.Held(lease.status().message());
        } else {
          notices.Down(lease.status().message());
        }
        reported_down = true;
      }
      SleepFor(NextBackoff(), drain);
      continue;
    }
    if (reported_down) notices.Up();
    reported_down = false;
    tls_failures_ = 0;
    backoff_ = 0ms;
    if (lease->campaign_ended()) {
      campaign_ended_ = true;
      return;
    }
    if (!lease->has_job()) {
      if (options_.stop_when_idle) return;
      SleepFor(std::chrono::milliseconds(std::max<uint32_t>(lease->retry_after_ms(), 10)), drain);
      continue;
    }
    RunJob(lease->job(), stop);
  }
}

template <typename T, typename Stopping, typename Beaten>
void LeaseLoop::AwaitWithHeartbeats(const foundry::v1::Job& job, std::future<T>& pending,
                                    Stopping stopping, Beaten beaten) {
  const auto interval = HeartbeatInterval(job);
  auto last_beat = std::chrono::steady_clock::now();
  while (pending.wait_for(std::min(interval, kStopPoll)) != std::future_status::ready) {
    if (stopping()) return;
    if (std::chrono::steady_clock::now() - last_beat < interval) continue;
    last_beat = std::chrono::steady_clock::now();
    if (!beaten(Beat(job))) return;
  }
}

template <typename Output, typename Work>
Output LeaseLoop::RunWithHeartbeats(const foundry::v1::Job& job, const std::atomic<bool>& stop,
                                    std::atomic<bool>& cancel, std::string& outcome, Work work) {
  auto running = std::async(std::launch::async, work);
  outcome = "completed";
  // A "stop" answer or a lost lease cancels; Unavailable keeps going (the
  // result may still be wanted).
  AwaitWithHeartbeats(
      job, running,
      [&] {
        if (!stop.load()) return false;
        cancel = true;
        outcome = "cancelled";
        // Hand the lease back before waiting for the work to notice: another
        // worker may start the job while this one winds down.
        ReleaseLease(job);
        return true;
      },
      [&](const Result<foundry::v1::HeartbeatResponse>& beat) {
        if ((beat.ok() && !beat->keep_going()) ||
            (!beat.ok() && beat.status().code() == Status::Code::kNotFound)) {
          cancel = true;
          outcome = "abandoned";
          return false;
        }
        return true;
      });
  return running.get();
}

Result<foundry::v1::HeartbeatResponse> LeaseLoop::Beat(const foundry::v1::Job& job) {
  foundry::v1::HeartbeatRequest hb;
  hb.set_worker_id(options_.worker_id);
  hb.set_worker_key(options_.worker_key);
  hb.set_lease_id(job.lease_id());
  return source_.Heartbeat(hb);
}

void LeaseLoop::ReleaseLease(const foundry::v1::Job& job) {
  foundry::v1::ReleaseRequest req;
  req.set_worker_id(options_.worker_id);
  req.set_worker_key(options_.worker_key);
  req.add_lease_ids(job.lease_id());
  req.set_worker_stopping(true);
  auto released = source_.Release(req);
  if (!released.ok()) {
    fmt::print(stderr, "worker: could not hand back the lease of a job of {} (it will lapse): {}\n",
               job.campaign_id(), released.status().message());
  }
}

bool LeaseLoop::PermanentTransportFailure(const Status& status) {
  if (status.code() != Status::Code::kUnavailable) return false;
  const std::string& m = status.message();
  // gRPC names OpenSSL's verification error; a reset during a handshake
  // (SSL_ERROR_SYSCALL, a restarting coordinator) is not one of these.
  const bool verification = m.find("CERTIFICATE_VERIFY_FAILED") != std::string::npos ||
                            m.find("certificate verify failed") != std::string::npos ||
                            m.find("Peer name") != std::string::npos;  // not in its certificate
  tls_failures_ = verification ? tls_failures_ + 1 : 0;
  return tls_failures_ >= 3;
}

bool LeaseLoop::SubmitWithRetry(const foundry::v1::Job& job,
                                const std::vector<foundry::v1::ResultChunk>& chunks,
                                const std::atomic<bool>& stop) {
  // Retry a failed submission while the coordinator is away: the job's output
  // stays valid, and the coordinator ignores a repeated one.
  for (int attempt = 0; !stop.load(); ++attempt) {
    auto submitting = std::async(std::launch::async, [&] { return source_.Submit(chunks); });
    // The answers are not acted on: the submission itself says whether the
    // job is still wanted.
    AwaitWithHeartbeats(
        job, submitting, [] { return false; },
        [](const Result<foundry::v1::HeartbeatResponse>&) { return true; });
    auto sent = submitting.get();
    if (sent.ok()) {
      ++jobs_completed_;
      return true;
    }
    const auto code = sent.status().code();
    const bool abandon =
        options_.abandon_submissions != nullptr && options_.abandon_submissions->load();
    // Unavailable: the coordinator is away; ResourceExhausted: it holds as
    // many submissions as it may, for now.
    const bool later =
        code == Status::Code::kUnavailable || code == Status::Code::kResourceExhausted;
    if (!later || attempt >= 20 || abandon) {
      // NotFound: the coordinator restarted and forgot the lease; the job
      // will be leased again. Anything else: the output was refused.
      fmt::print(stderr, "worker: submission for {} dropped: {}\n", job.campaign_id(),
                 sent.status().ToString());
      return false;
    }
    // The coordinator is away: as idle as a Lease that cannot reach it.
    if (code == Status::Code::kUnavailable) ReleaseIdle();
    SleepFor(NextBackoff(), stop, options_.abandon_submissions);
  }
  return false;
}

void LeaseLoop::ReleaseIdle() {
  if (idle_released_) return;
  idle_released_ = true;
  if (options_.idle) options_.idle->JobEnded();
}

void LeaseLoop::RunJob(const foundry::v1::Job& job, const std::atomic<bool>& stop) {
  auto family = puzzles::FindFamily(job.family());
  if (!family.ok()) {
    // The coordinator knows a family this build lacks: let the lease lapse so
    // that a worker that has it takes the job.
    fmt::print(stderr, "worker: cannot run job of {}: {}\n", job.campaign_id(),
               family.status().message());
    if (metrics_) metrics_->JobEnded(job.family(), "failed", {});
    return;
  }
  auto params = (*family)->MakeParams(nlohmann::json::parse(job.params_json(), nullptr, false));
  if (!params.ok()) {
    fmt::print(stderr, "worker: job of {} has bad parameters: {}\n", job.campaign_id(),
               params.status().message());
    if (metrics_) metrics_->JobEnded(job.family(), "failed", {});
    return;
  }

  if (metrics_) metrics_->JobStarted();
  if (options_.idle) options_.idle->JobStarted();
  idle_released_ = false;
  struct IdleAgain {
    LeaseLoop* loop;
    ~IdleAgain() { loop->ReleaseIdle(); }
  } idle_again{this};
  std::atomic<bool> cancel{false};
  std::string outcome;
  std::vector<foundry::v1::ResultChunk> chunks;
  foundry::v1::JobStats stats;
  double busy_seconds = 0;
  bool cancelled = false;
  if (job.kind() == foundry::v1::JOB_KIND_VERIFY) {
    VerifySpec spec{*family,
                    std::move(*params),
                    job.seed(),
                    {job.puzzles().begin(), job.puzzles().end()},
                    {job.regenerate().begin(), job.regenerate().end()}};
    if (job.regenerate_all()) {
      for (uint64_t i = job.first_index(); i < job.end_index(); ++i) spec.regenerate.push_back(i);
    }
    VerifyOutput output = RunWithHeartbeats<VerifyOutput>(
        job, stop, cancel, outcome, [&] { return executor_.RunVerify(spec, cancel); });
    if (options_.forgery) options_.forgery->Apply(output);
    busy_seconds = output.stats.seconds();
    cancelled = output.cancelled;
    if (!cancelled) chunks = ChunkVerifyResults(job.lease_id(), std::move(output));
  } else {
    JobSpec spec{*family, std::move(*params), job.seed(), job.first_index(), job.end_index()};
    JobOutput output = RunWithHeartbeats<JobOutput>(job, stop, cancel, outcome,
                                                    [&] { return executor_.Run(spec, cancel); });
    if (options_.forgery && !output.cancelled) options_.forgery->Apply(spec, output);
    busy_seconds = output.stats.seconds();
    cancelled = output.cancelled;
    stats = output.stats;
    if (!cancelled) chunks = ChunkResults(job.lease_id(), std::move(output));
  }
  if (metrics_) {
    metrics_->JobFinished();
    metrics_->AddBusySeconds(busy_seconds * executor_.threads());
  }
  if (cancelled) {
    if (metrics_)
      metrics_->JobEnded(job.family(), outcome == "completed" ? "cancelled" : outcome, {});
    return;
  }
  if (stop.load()) {
    // Done just as the worker stops: no time to submit; let another run it now.
    ReleaseLease(job);
    if (metrics_) metrics_->JobEnded(job.family(), "cancelled", {});
    return;
  }
  const bool sent = SubmitWithRetry(job, chunks, stop);
  if (metrics_) {
    // Verification jobs count as jobs but add no candidates to the
    // generation counters.
    metrics_->JobEnded(job.family(), sent ? "completed" : "abandoned",
                       sent ? stats : foundry::v1::JobStats{});
  }
}

}  // namespace foundry::worker
