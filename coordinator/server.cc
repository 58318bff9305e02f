#include "coordinator/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>

namespace foundry::coordinator {

CoordinatorServer::CoordinatorServer(Coordinator& core)
    : campaigns_(core), workers_(core), store_(core.store()) {}

CoordinatorServer::~CoordinatorServer() { Shutdown(std::chrono::milliseconds(0)); }

Result<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(const std::string& address,
                                                                    Coordinator& core,
                                                                    RpcMetrics* rpc_metrics) {
  std::unique_ptr<CoordinatorServer> s(new CoordinatorServer(core));
  // Standard health checking (grpc.health.v1) for probes, and reflection so
  // that generic tools can list and call the services.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &s->port_);
  // Result chunks hold at most 1,000 puzzles; 16 MB leaves room for large ones.
  builder.SetMaxReceiveMessageSize(16 << 20);
  builder.RegisterService(&s->campaigns_);
  builder.RegisterService(&s->workers_);
  builder.RegisterService(&s->store_);
  if (rpc_metrics) {
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
    creators.push_back(rpc_metrics->InterceptorFactory());
    builder.experimental().SetInterceptorCreators(std::move(creators));
  }
  s->server_ = builder.BuildAndStart();
  if (!s->server_ || s->port_ == 0) {
    return Status::Unavailable("cannot listen on " + address + " (address in use or invalid)");
  }
  return s;
}

void CoordinatorServer::Shutdown(std::chrono::milliseconds grace) {
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now() + grace);
    server_.reset();
  }
}

}  // namespace foundry::coordinator
