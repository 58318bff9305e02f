// CoordinatorServer: the coordinator's gRPC server (campaigns, workers, store
// and the standard health service) over a Coordinator core.
#pragma once

#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/status.h"
#include "coordinator/coordinator.h"
#include "coordinator/rpc_metrics.h"
#include "coordinator/services.h"

namespace foundry::coordinator {

class CoordinatorServer {
 public:
  // Listens on `address` ("127.0.0.1:7000"; port 0 picks a free one).
  // `core` must outlive the server. Unavailable when the address is taken.
  // `rpc_metrics` (nullable; must outlive the server) times every call.
  static Result<std::unique_ptr<CoordinatorServer>> Start(const std::string& address,
                                                          Coordinator& core,
                                                          RpcMetrics* rpc_metrics = nullptr);
  ~CoordinatorServer();

  // The port actually bound.
  int port() const { return port_; }
  // Blocks until Shutdown() is called from another thread.
  void Wait() { server_->Wait(); }
  // Stops accepting calls and finishes the ones in progress (at most
  // `grace` later they are cancelled).
  void Shutdown(std::chrono::milliseconds grace = std::chrono::seconds(5));

 private:
  explicit CoordinatorServer(Coordinator& core);

  CampaignServiceImpl campaigns_;
  WorkerServiceImpl workers_;
  PuzzleStoreServiceImpl store_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace foundry::coordinator
