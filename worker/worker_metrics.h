// The worker's Prometheus metrics: what it generated.
//
// A worker owns the generation counters (candidates, accepted, rejected by
// reason, jobs and their duration); the coordinator owns what was stored.
// docs/metrics.md lists which process exports which metric.
//
// Utilisation: foundry_worker_cpu_seconds_total (the process's CPU time,
// sampled by StartCpuSampler) over foundry_worker_threads is the share of
// the generation threads kept busy. foundry_worker_busy_seconds_total counts
// job wall time times threads; with --concurrent-jobs > 1 the jobs share the
// threads, so it can exceed threads x time and is not a utilisation.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is this.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

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
  // Stops the CPU sampler, if started.
  ~WorkerMetrics();
  WorkerMetrics(const WorkerMetrics&) = delete;
  WorkerMetrics& operator=(const WorkerMetrics&) = delete;

  // A job ended. `outcome` is "completed", "cancelled", "abandoned" (lease
  // lost) or "failed".
  void JobEnded(const std::string& family, const std::string& outcome,
                const foundry::v1::JobStats& stats);
  void JobStarted() { in_flight_.Increment(); }
  void JobFinished() { in_flight_.Decrement(); }
  // Seconds the worker's threads spent generating, for utilisation.
  void AddBusySeconds(double seconds) { busy_seconds_.Increment(seconds); }
  // The generation threads of this worker.
  void SetThreads(int threads) { threads_.Set(threads); }
  // Samples the process's CPU time (user + system) into
  // foundry_worker_cpu_seconds_total now and then every `every` on a thread
  // of its own, until destruction. Call at most once.
  void StartCpuSampler(std::chrono::milliseconds every = std::chrono::seconds(1));

 private:
  prometheus::Family<prometheus::Counter>& candidates_;
  prometheus::Family<prometheus::Counter>& accepted_;
  prometheus::Family<prometheus::Counter>& rejected_;
  prometheus::Family<prometheus::Counter>& jobs_;
  prometheus::Histogram& job_duration_;
  prometheus::Gauge& in_flight_;
  prometheus::Counter& busy_seconds_;
  prometheus::Gauge& threads_;
  prometheus::Counter& cpu_seconds_;

  // The sampler's last reading, and its stop signal.
  void SampleCpu();
  double last_cpu_seconds_ = 0;
  std::mutex sampler_mu_;
  std::condition_variable sampler_cv_;
  bool sampler_stop_ = false;
  std::thread sampler_;
};

}  // namespace foundry::worker
