#include "coordinator/server.h"

#include <grpcpp/health_check_service_interface.h>

namespace foundry::coordinator {

CoordinatorServer::CoordinatorServer(Coordinator& core)
    : campaigns_(core), workers_(core), store_(core.store()) {}

CoordinatorServer::~CoordinatorServer() { Shutdown(std::chrono::milliseconds(0)); }

Result<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(const std::string& address,
                                                                    Coordinator& core) {
  std::unique_ptr<CoordinatorServer> s(new CoordinatorServer(core));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &s->port_);
  // Result chunks hold at most 1,000 puzzles; 16 MB leaves room for large ones.
  builder.SetMaxReceiveMessageSize(16 << 20);
  builder.RegisterService(&s->campaigns_);
  builder.RegisterService(&s->workers_);
  builder.RegisterService(&s->store_);
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
