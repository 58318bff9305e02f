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

#include <memory>
#include <string>

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
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& duration_;
};

}  // namespace foundry::coordinator
