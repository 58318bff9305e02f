#include "worker/worker_metrics.h"

namespace foundry::worker {

WorkerMetrics::WorkerMetrics(prometheus::Registry& registry)
    : candidates_(prometheus::BuildCounter()
                      .Name("foundry_candidates_total")
                      .Help("Candidates generated, by family")
                      .Register(registry)),
      accepted_(prometheus::BuildCounter()
                    .Name("foundry_accepted_total")
                    .Help("Candidates accepted by the family's filters, by family")
                    .Register(registry)),
      rejected_(prometheus::BuildCounter()
                    .Name("foundry_rejected_total")
                    .Help("Candidates rejected, by family and reason")
                    .Register(registry)),
      jobs_(prometheus::BuildCounter()
                .Name("foundry_jobs_total")
                .Help("Jobs run by this worker, by outcome")
                .Register(registry)),
      job_duration_(prometheus::BuildHistogram()
                        .Name("foundry_job_duration_seconds")
                        .Help("Wall time to generate one job")
                        .Register(registry)
                        .Add({}, prometheus::Histogram::BucketBoundaries{
                                     0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60})),
      in_flight_(prometheus::BuildGauge()
                     .Name("foundry_jobs_in_flight")
                     .Help("Jobs this worker is running now")
                     .Register(registry)
                     .Add({})),
      busy_seconds_(prometheus::BuildCounter()
                        .Name("foundry_worker_busy_seconds_total")
                        .Help("Seconds spent generating (divide by threads for utilisation)")
                        .Register(registry)
                        .Add({})) {}

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
