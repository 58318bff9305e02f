// The worker's Prometheus metrics: what it generated.
//
// A worker owns the generation counters (candidates, accepted, rejected by
// reason, jobs and their duration); the coordinator owns what was stored.
// docs/metrics.md lists which process exports which metric.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is this.
#pragma once

#include <memory>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "foundry/v1/worker.pb.h"

namespace foundry::worker {

class WorkerMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  explicit WorkerMetrics(prometheus::Registry& registry);

  // A job ended. `outcome` is "completed", "cancelled", "abandoned" (lease
  // lost) or "failed".
  void JobEnded(const std::string& family, const std::string& outcome,
                const foundry::v1::JobStats& stats);
  void JobStarted() { in_flight_.Increment(); }
  void JobFinished() { in_flight_.Decrement(); }
  // Seconds the worker's threads spent generating, for utilisation.
  void AddBusySeconds(double seconds) { busy_seconds_.Increment(seconds); }

 private:
  prometheus::Family<prometheus::Counter>& candidates_;
  prometheus::Family<prometheus::Counter>& accepted_;
  prometheus::Family<prometheus::Counter>& rejected_;
  prometheus::Family<prometheus::Counter>& jobs_;
  prometheus::Histogram& job_duration_;
  prometheus::Gauge& in_flight_;
  prometheus::Counter& busy_seconds_;
};

}  // namespace foundry::worker
