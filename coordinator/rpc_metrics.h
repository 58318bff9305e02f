// RpcMetrics: Prometheus metrics for every gRPC call the coordinator serves,
// taken by a server interceptor (so no service has to time itself):
//   foundry_rpc_requests_total{service,method,code}   calls completed
//   foundry_rpc_duration_seconds{service,method}      histogram, call start
//                                                     to status sent
// `code` is the gRPC status name ("OK", "NOT_FOUND", ...). A call whose
// status is never sent (the client went away) counts as CANCELLED. For
// streaming calls the duration covers the whole stream. Calls answered
// UNIMPLEMENTED are labelled service="unknown", method="unknown", so that
// clients cannot create series at will.
//
// Thread safety: thread-safe; one RpcMetrics serves every call of a server.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include <grpcpp/support/server_interceptor.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace foundry::coordinator {

class RpcMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  explicit RpcMetrics(prometheus::Registry& registry);

  // A completed call. `full_method` is gRPC's "/package.Service/Method".
  void Record(const std::string& full_method, int grpc_code, double seconds);

  // A factory to pass to grpc::ServerBuilder::experimental()
  // .SetInterceptorCreators(); this RpcMetrics must outlive the server.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> InterceptorFactory();

  // "OK", "CANCELLED", ..., "UNAUTHENTICATED"; "UNKNOWN" for other numbers.
  static const char* CodeName(int grpc_code);

 private:
  static constexpr int kCodes = 17;  // OK .. UNAUTHENTICATED

  // The series of one (service, method), looked up once per method rather
  // than per call: prometheus-cpp's Family::Add builds and hashes a label
  // map under a mutex, which costs more than the rest of a Get.
  struct MethodSeries {
    prometheus::Histogram* duration = nullptr;
    std::array<std::atomic<prometheus::Counter*>, kCodes + 1> by_code{};  // last: other codes
    std::string service, method;
  };
  MethodSeries& SeriesFor(const std::string& full_method, bool unimplemented);
  prometheus::Counter& CounterFor(MethodSeries& series, int grpc_code);

  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& duration_;
  std::shared_mutex mu_;  // guards series_ (the map, not the series)
  // Only methods that answered something other than UNIMPLEMENTED get an
  // entry, so clients cannot grow the map.
  std::unordered_map<std::string, std::unique_ptr<MethodSeries>> series_;
  std::unique_ptr<MethodSeries> unknown_;
};

}  // namespace foundry::coordinator
