// Short forms of prometheus-cpp's builders, so that a process's metrics
// read as a list of names and helps. Header-only; for the processes'
// modules, which link prometheus-cpp (foundry_runtime).
#pragma once

#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace foundry::metrics {

// A counter family, to Add() labelled counters to.
inline prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& registry,
                                                              const std::string& name,
                                                              const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

// One counter without labels.
inline prometheus::Counter& Counter(prometheus::Registry& registry, const std::string& name,
                                    const std::string& help) {
  return CounterFamily(registry, name, help).Add({});
}

// A gauge family, to Add() labelled gauges to.
inline prometheus::Family<prometheus::Gauge>& GaugeFamily(prometheus::Registry& registry,
                                                          const std::string& name,
                                                          const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

// One gauge without labels.
inline prometheus::Gauge& Gauge(prometheus::Registry& registry, const std::string& name,
                                const std::string& help) {
  return GaugeFamily(registry, name, help).Add({});
}

// A histogram family, to Add() labelled histograms (with their buckets) to.
inline prometheus::Family<prometheus::Histogram>& HistogramFamily(prometheus::Registry& registry,
                                                                  const std::string& name,
                                                                  const std::string& help) {
  return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

}  // namespace foundry::metrics
