#include "coordinator/rpc_metrics.h"

#include <chrono>

#include "common/metric_builders.h"

namespace foundry::coordinator {
namespace {

using grpc::experimental::InterceptionHookPoints;

// One per call: created when the call starts, destroyed after it ends.
class MetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(RpcMetrics& metrics, const char* method)
      : metrics_(metrics),
        method_(method ? method : ""),
        start_(std::chrono::steady_clock::now()) {}

  ~MetricsInterceptor() override {
    if (!recorded_) Record(grpc::StatusCode::CANCELLED);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      Record(methods->GetSendStatus().error_code());
    }
    methods->Proceed();
  }

 private:
  void Record(grpc::StatusCode code) {
    recorded_ = true;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
    metrics_.Record(method_, static_cast<int>(code), took.count());
  }

  RpcMetrics& metrics_;
  const std::string method_;
  const std::chrono::steady_clock::time_point start_;
  bool recorded_ = false;
};

class MetricsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(RpcMetrics& metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new MetricsInterceptor(metrics_, info->method());
  }

 private:
  RpcMetrics& metrics_;
};

}  // namespace

RpcMetrics::RpcMetrics(prometheus::Registry& registry)
    : requests_(metrics::CounterFamily(
          registry, "foundry_rpc_requests_total",
          "gRPC calls completed by the coordinator, by service, method and status code")),
      duration_(metrics::HistogramFamily(
          registry, "foundry_rpc_duration_seconds",
          "Time from the start of a gRPC call to its status, by service and method")) {}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
RpcMetrics::InterceptorFactory() {
  return std::make_unique<MetricsInterceptorFactory>(*this);
}

RpcMetrics::MethodSeries& RpcMetrics::SeriesFor(const std::string& full_method,
                                                bool unimplemented) {
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
      0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
  auto make = [&](std::string service, std::string method) {
    auto series = std::make_unique<MethodSeries>();
    series->duration = &duration_.Add({{"service", service}, {"method", method}}, kBuckets);
    series->service = std::move(service);
    series->method = std::move(method);
    return series;
  };
  const size_t slash = full_method.rfind('/');
  if (unimplemented || slash == std::string::npos || slash <= 1 || full_method[0] != '/') {
    std::lock_guard lock(mu_);
    if (!unknown_) unknown_ = make("unknown", "unknown");
    return *unknown_;
  }
  {
    std::shared_lock lock(mu_);
    if (auto it = series_.find(full_method); it != series_.end()) return *it->second;
  }
  std::lock_guard lock(mu_);
  auto& slot = series_[full_method];
  if (!slot) slot = make(full_method.substr(1, slash - 1), full_method.substr(slash + 1));
  return *slot;
}

prometheus::Counter& RpcMetrics::CounterFor(MethodSeries& series, int grpc_code) {
  const size_t i = grpc_code >= 0 && grpc_code < kCodes ? static_cast<size_t>(grpc_code) : kCodes;
  prometheus::Counter* counter = series.by_code[i].load(std::memory_order_acquire);
  if (counter == nullptr) {
    // Family::Add returns the same counter for the same labels, so two
    // threads racing here store the same pointer.
    counter = &requests_.Add(
        {{"service", series.service}, {"method", series.method}, {"code", CodeName(grpc_code)}});
    series.by_code[i].store(counter, std::memory_order_release);
  }
  return *counter;
}

void RpcMetrics::Record(const std::string& full_method, int grpc_code, double seconds) {
  MethodSeries& series = SeriesFor(full_method, grpc_code == grpc::StatusCode::UNIMPLEMENTED);
  CounterFor(series, grpc_code).Increment();
  series.duration->Observe(seconds);
}

const char* RpcMetrics::CodeName(int grpc_code) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  if (grpc_code < 0 || grpc_code >= static_cast<int>(std::size(kNames))) return "UNKNOWN";
  return kNames[grpc_code];
}

}  // namespace foundry::coordinator
