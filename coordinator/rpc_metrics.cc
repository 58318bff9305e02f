#include "coordinator/rpc_metrics.h"

#include <chrono>

namespace foundry::coordinator {
namespace {

using grpc::experimental::InterceptionHookPoints;

// One per call: created when the call starts, destroyed after it ends.
class MetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(RpcMetrics& metrics, const char* method)
      : metrics_(metrics), method_(method ? method : ""), start_(std::chrono::steady_clock::now()) {}

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

class MetricsInterceptorFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
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
    : requests_(prometheus::BuildCounter()
                    .Name("foundry_rpc_requests_total")
                    .Help("gRPC calls completed by the coordinator, by service, method and status code")
                    .Register(registry)),
      duration_(prometheus::BuildHistogram()
                    .Name("foundry_rpc_duration_seconds")
                    .Help("Time from the start of a gRPC call to its status, by service and method")
                    .Register(registry)) {}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
RpcMetrics::InterceptorFactory() {
  return std::make_unique<MetricsInterceptorFactory>(*this);
}

void RpcMetrics::Record(const std::string& full_method, int grpc_code, double seconds) {
  std::string service = "unknown";
  std::string method = "unknown";
  const size_t slash = full_method.rfind('/');
  if (grpc_code != grpc::StatusCode::UNIMPLEMENTED && slash != std::string::npos && slash > 1 &&
      full_method[0] == '/') {
    service = full_method.substr(1, slash - 1);
    method = full_method.substr(slash + 1);
  }
  requests_.Add({{"service", service}, {"method", method}, {"code", CodeName(grpc_code)}})
      .Increment();
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
      0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
  duration_.Add({{"service", service}, {"method", method}}, kBuckets).Observe(seconds);
}

const char* RpcMetrics::CodeName(int grpc_code) {
  static const char* const kNames[] = {
      "OK",           "CANCELLED",       "UNKNOWN",          "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS",   "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",       "UNAVAILABLE",      "DATA_LOSS",
      "UNAUTHENTICATED"};
  if (grpc_code < 0 || grpc_code >= static_cast<int>(std::size(kNames))) return "UNKNOWN";
  return kNames[grpc_code];
}

}  // namespace foundry::coordinator
