// The coordinator's Prometheus metrics: what was committed and stored, and the
// state of leases and workers. docs/metrics.md lists which process exports
// which metric.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is this.
#pragma once

#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace foundry::coordinator {

class CoordinatorMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  explicit CoordinatorMetrics(prometheus::Registry& registry);

  void Stored(const std::string& family, uint64_t n) { Inc(stored_, family, n); }
  void Duplicates(const std::string& family, uint64_t n) { Inc(duplicates_, family, n); }
  void Invalid(const std::string& family, uint64_t n) { Inc(invalid_, family, n); }
  // outcome: "committed", "repeated", "lapsed".
  void JobOutcome(const std::string& outcome) { jobs_.Add({{"outcome", outcome}}).Increment(); }
  void LeaseLapsed() { lapsed_.Increment(); }
  void SetJobsInFlight(double n) { in_flight_.Set(n); }
  void SetWorkers(double n) { workers_.Set(n); }
  void SetProgress(const std::string& campaign, double ratio) {
    progress_.Add({{"campaign", campaign}}).Set(ratio);
  }
  void SetStorePuzzles(const std::string& family, double n) {
    store_puzzles_.Add({{"family", family}}).Set(n);
  }
  void StoreWrite(double seconds) { store_write_.Observe(seconds); }

 private:
  static void Inc(prometheus::Family<prometheus::Counter>& f, const std::string& family, uint64_t n) {
    if (n != 0) f.Add({{"family", family}}).Increment(static_cast<double>(n));
  }

  prometheus::Family<prometheus::Counter>& stored_;
  prometheus::Family<prometheus::Counter>& duplicates_;
  prometheus::Family<prometheus::Counter>& invalid_;
  prometheus::Family<prometheus::Counter>& jobs_;
  prometheus::Counter& lapsed_;
  prometheus::Gauge& in_flight_;
  prometheus::Gauge& workers_;
  prometheus::Family<prometheus::Gauge>& progress_;
  prometheus::Family<prometheus::Gauge>& store_puzzles_;
  prometheus::Histogram& store_write_;
};

}  // namespace foundry::coordinator
