#include "coordinator/coordinator_metrics.h"

namespace foundry::coordinator {

CoordinatorMetrics::CoordinatorMetrics(prometheus::Registry& registry)
    : stored_(prometheus::BuildCounter()
                  .Name("foundry_stored_total")
                  .Help("Puzzles new to the store, by family")
                  .Register(registry)),
      duplicates_(prometheus::BuildCounter()
                      .Name("foundry_duplicates_total")
                      .Help("Accepted puzzles already in the store, by family")
                      .Register(registry)),
      invalid_(prometheus::BuildCounter()
                   .Name("foundry_invalid_total")
                   .Help("Submitted puzzles that failed the coordinator's re-verification")
                   .Register(registry)),
      jobs_(prometheus::BuildCounter()
                .Name("foundry_jobs_total")
                .Help("Job results received by the coordinator, by outcome")
                .Register(registry)),
      lapsed_(prometheus::BuildCounter()
                  .Name("foundry_lease_expirations_total")
                  .Help("Leases that lapsed without a heartbeat and were re-queued")
                  .Register(registry)
                  .Add({})),
      in_flight_(prometheus::BuildGauge()
                     .Name("foundry_jobs_in_flight")
                     .Help("Jobs leased to workers and not yet submitted")
                     .Register(registry)
                     .Add({})),
      workers_(prometheus::BuildGauge()
                   .Name("foundry_workers")
                   .Help("Workers seen in the last 30 seconds")
                   .Register(registry)
                   .Add({})),
      progress_(prometheus::BuildGauge()
                    .Name("foundry_campaign_progress_ratio")
                    .Help("Stored puzzles over the campaign's count")
                    .Register(registry)),
      store_puzzles_(prometheus::BuildGauge()
                         .Name("foundry_store_puzzles")
                         .Help("Puzzles in the store, by family")
                         .Register(registry)),
      store_write_(prometheus::BuildHistogram()
                       .Name("foundry_store_write_seconds")
                       .Help("Time to commit one job's batch to RocksDB")
                       .Register(registry)
                       .Add({}, prometheus::Histogram::BucketBoundaries{
                                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1})) {}

}  // namespace foundry::coordinator
