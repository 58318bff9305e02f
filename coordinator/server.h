// CoordinatorServer: the coordinator's gRPC server (campaigns, workers, store
// and the standard health service) over a Coordinator core.
#pragma once

#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/listen_address.h"
#include "common/status.h"
#include "coordinator/access_control.h"
#include "coordinator/backup_service.h"
#include "coordinator/coordinator.h"
#include "coordinator/rpc_metrics.h"
#include "coordinator/services.h"
#include "coordinator/stream_limiter.h"

namespace foundry::coordinator {

// How the server protects itself. The defaults (no TLS, no tokens) are only
// accepted on a loopback address.
struct ServerSecurity {
  // PEM server certificate chain and key: TLS on when both are set.
  std::string tls_cert_pem;
  std::string tls_key_pem;
  // PEM CA of client certificates: when set, clients must present one
  // (mutual TLS).
  std::string tls_client_ca_pem;
  // Bearer tokens of the three roles (see AccessControl); empty: no such role.
  std::string admin_token;
  std::string reader_token;
  std::string worker_token;
  // Listen off loopback without TLS or without tokens (a loud warning is
  // printed). For closed networks and tests only.
  bool allow_insecure_remote = false;
  // Bounds on export streams, per client and in all, and their idle end.
  StreamLimits streams;
  // Bytes of job submissions held at once, all workers together
  // (SubmissionBudget); a stream past it is refused with RESOURCE_EXHAUSTED
  // and the worker sends it again later.
  size_t submission_bytes = size_t{1} << 30;
  // SubmitResults streams open at once, all workers together (they share a
  // token, so there is no per-client bound), and their idle end: each holds
  // a server thread, and a worker sends its chunks at once.
  int max_submit_streams = 1024;
};

// A plaintext gRPC server that serves nothing but the standard health
// service (grpc.health.v1) on `address`: for probes that cannot speak TLS
// (Kubernetes' gRPC probes) when the main port requires it. It exposes no
// data, so it may listen anywhere. Unavailable when the address is taken.
Result<std::unique_ptr<grpc::Server>> StartHealthServer(const std::string& address, int* port);

// The refusals CoordinatorServer::Start makes before it listens (TLS
// material that does not fit, equal tokens, no TLS or tokens off loopback
// without allow_insecure_remote, stream limits), with Start's codes and
// messages. No side effects: main calls it before it opens the store, so
// that a refused start leaves nothing on disk.
Status CheckServerSecurity(const std::string& address, const ServerSecurity& security);

// How the store service rates players and counts their plays.
struct PlayerSettings {
  // REQUIRES: CheckRatingSettings(ratings).ok().
  RatingSettings ratings;
  // Nullable; must outlive the server.
  PlayerMetrics* metrics = nullptr;
};

class CoordinatorServer {
 public:
  // Listens on `address` ("127.0.0.1:7000"; port 0 picks a free one).
  // `core` must outlive the server. Unavailable when the address is taken;
  // FailedPrecondition when `address` is not loopback and TLS or tokens are
  // missing without allow_insecure_remote; InvalidArgument for TLS material
  // that does not fit together.
  // `rpc_metrics` (nullable; must outlive the server) times every call;
  // `backup` says how online backups are taken and recorded; `players` how
  // players are rated and counted.
  static Result<std::unique_ptr<CoordinatorServer>> Start(const std::string& address,
                                                          Coordinator& core,
                                                          const ServerSecurity& security = {},
                                                          RpcMetrics* rpc_metrics = nullptr,
                                                          const BackupSettings& backup = {},
                                                          const PlayerSettings& players = {});
  ~CoordinatorServer();

  // The port actually bound.
  int port() const { return port_; }
  // Blocks until Shutdown() is called from another thread.
  void Wait() { server_->Wait(); }
  // Stops accepting calls and finishes the ones in progress (at most
  // `grace` later they are cancelled).
  void Shutdown(std::chrono::milliseconds grace = std::chrono::seconds(5));

 private:
  CoordinatorServer(Coordinator& core, const ServerSecurity& security, const BackupSettings& backup,
                    const PlayerSettings& players);

  AccessControl access_;
  StreamLimiter streams_;
  CampaignServiceImpl campaigns_;
  WorkerServiceImpl workers_;
  PuzzleStoreServiceImpl store_handlers_;  // access off; store_ checks
  PuzzleStoreCallbackService store_;
  StoreAdminServiceImpl admin_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace foundry::coordinator
