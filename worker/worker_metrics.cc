#include "worker/worker_metrics.h"

#include <sys/resource.h>

#include "common/metric_builders.h"

namespace foundry::worker {

WorkerMetrics::WorkerMetrics(prometheus::Registry& registry)
    : candidates_(metrics::CounterFamily(registry, "foundry_candidates_total",
                                         "Candidates generated, by family")),
      accepted_(metrics::CounterFamily(registry, "foundry_accepted_total",
                                       "Candidates accepted by the family's filters, by family")),
      rejected_(metrics::CounterFamily(registry, "foundry_rejected_total",
                                       "Candidates rejected, by family and reason")),
      jobs_(metrics::CounterFamily(registry, "foundry_jobs_total",
                                   "Jobs run by this worker, by outcome")),
      job_duration_(
          metrics::HistogramFamily(registry, "foundry_job_duration_seconds",
                                   "Wall time to generate one job")
              .Add({}, prometheus::Histogram::BucketBoundaries{0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                               0.5, 1, 2.5, 5, 10, 30, 60})),
      in_flight_(
          metrics::Gauge(registry, "foundry_jobs_in_flight", "Jobs this worker is running now")),
      busy_seconds_(metrics::Counter(registry, "foundry_worker_busy_seconds_total",
                                     "Job wall time times threads; concurrent jobs share the "
                                     "threads, so this may exceed threads x time")),
      threads_(
          metrics::Gauge(registry, "foundry_worker_threads", "Generation threads of this worker")),
      cpu_seconds_(metrics::Counter(registry, "foundry_worker_cpu_seconds_total",
                                    "CPU time (user + system) of the worker process; over "
                                    "foundry_worker_threads, the threads' utilisation")) {
  // Outcomes exist at zero from the start: rates over them are 0, not absent.
  for (const char* outcome : {"completed", "cancelled", "abandoned", "failed"}) {
    jobs_.Add({{"outcome", outcome}});
  }
}

WorkerMetrics::~WorkerMetrics() {
  {
    std::lock_guard lock(sampler_mu_);
    sampler_stop_ = true;
  }
  sampler_cv_.notify_all();
  if (sampler_.joinable()) sampler_.join();
}

void WorkerMetrics::StartCpuSampler(std::chrono::milliseconds every) {
  SampleCpu();
  sampler_ = std::thread([this, every] {
    std::unique_lock lock(sampler_mu_);
    while (!sampler_cv_.wait_for(lock, every, [&] { return sampler_stop_; })) SampleCpu();
  });
}

void WorkerMetrics::SampleCpu() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return;
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  const double now = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  if (now > last_cpu_seconds_) {
    cpu_seconds_.Increment(now - last_cpu_seconds_);
    last_cpu_seconds_ = now;
  }
}

void WorkerMetrics::JobEnded(const std::string& family, const std::string& outcome,
                             const foundry::v1::JobStats& stats) {
  jobs_.Add({{"outcome", outcome}}).Increment();
  if (outcome != "completed") return;
  candidates_.Add({{"family", family}}).Increment(static_cast<double>(stats.candidates()));
  accepted_.Add({{"family", family}}).Increment(static_cast<double>(stats.accepted()));
  for (const auto& [reason, n] : stats.rejected_by_reason()) {
    rejected_.Add({{"family", family}, {"reason", reason}}).Increment(static_cast<double>(n));
  }
  job_duration_.Observe(stats.seconds());
}

}  // namespace foundry::worker
