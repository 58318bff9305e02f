#include "coordinator/server.h"

#include <cstdio>

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>

#include "common/listen_address.h"
#include "coordinator/malformed_request.h"
#include "coordinator/message_limits.h"

namespace foundry::coordinator {
namespace {

// SubmitResults streams: bounded in all (workers share one token, so the
// per-client bound is the same), ended when idle as exports are.
StreamLimits SubmitStreamLimits(const ServerSecurity& security) {
  StreamLimits limits;
  limits.max_streams = security.max_submit_streams;
  limits.max_streams_per_client = security.max_submit_streams;
  limits.idle_timeout = security.streams.idle_timeout;
  limits.noun = "submission streams";
  limits.idle_end = "the submission was ended: its client sent nothing";
  limits.max_flag = limits.per_client_flag = "--max-submit-streams";
  return limits;
}

}  // namespace

CoordinatorServer::CoordinatorServer(Coordinator& core, const ServerSecurity& security,
                                     const BackupSettings& backup, const PlayerSettings& players)
    : access_(security.admin_token, security.reader_token, security.worker_token),
      streams_(security.streams),
      campaigns_(core, access_),
      workers_(core, access_, security.submission_bytes, SubmitStreamLimits(security)),
      store_handlers_(core.store(), &core),
      store_(store_handlers_, access_),
      admin_(core.store(), access_, backup) {
  store_handlers_.set_stream_limiter(&streams_);
  store_handlers_.set_rating_model(MakeRatingModel(players.ratings));
  store_handlers_.set_player_metrics(players.metrics);
}

CoordinatorServer::~CoordinatorServer() { Shutdown(std::chrono::milliseconds(0)); }

Status CheckServerSecurity(const std::string& address, const ServerSecurity& security) {
  FOUNDRY_RETURN_IF_ERROR(CheckListenAddress("--listen", address, /*unix_ok=*/true));
  if (security.streams.max_streams < 1 || security.streams.max_streams_per_client < 1 ||
      security.streams.idle_timeout.count() < 1) {
    return Status::InvalidArgument("stream limits must be positive");
  }
  const bool tls = !security.tls_cert_pem.empty() || !security.tls_key_pem.empty();
  if (tls && (security.tls_cert_pem.empty() || security.tls_key_pem.empty())) {
    return Status::InvalidArgument("TLS needs both a certificate and its key");
  }
  if (!security.tls_client_ca_pem.empty() && !tls) {
    return Status::InvalidArgument(
        "client certificates (mutual TLS) need TLS: give a certificate and key");
  }
  {
    const std::string* tokens[] = {&security.admin_token, &security.reader_token,
                                   &security.worker_token};
    for (int i = 0; i < 3; ++i) {
      for (int j = i + 1; j < 3; ++j) {
        if (!tokens[i]->empty() && *tokens[i] == *tokens[j]) {
          return Status::InvalidArgument("the admin, reader and worker tokens must all differ");
        }
      }
    }
  }
  const bool tokens = !security.admin_token.empty();
  if (!IsLoopbackAddress(address) && !(tls && tokens) && !security.allow_insecure_remote) {
    return Status::FailedPrecondition(
        "refusing to listen on " + address + " without " + (tls ? "an admin token" : "TLS") +
        ": off loopback, anyone who can reach the port could run or read campaigns. Give "
        "--tls-cert/--tls-key and --admin-token-file, or --insecure to do it anyway");
  }
  return Status::Ok();
}

Result<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(
    const std::string& address, Coordinator& core, const ServerSecurity& security,
    RpcMetrics* rpc_metrics, const BackupSettings& backup, const PlayerSettings& players) {
  FOUNDRY_RETURN_IF_ERROR(CheckServerSecurity(address, security));
  FOUNDRY_RETURN_IF_ERROR(CheckRatingSettings(players.ratings));
  const bool tls = !security.tls_cert_pem.empty() || !security.tls_key_pem.empty();
  const bool tokens = !security.admin_token.empty();
  if (!IsLoopbackAddress(address) && !(tls && tokens)) {
    std::fprintf(stderr,
                 "\n*** WARNING: listening on %s with%s TLS and with%s tokens: anyone who can "
                 "reach this port can %s. ***\n\n",
                 address.c_str(), tls ? "" : "out", tokens ? "" : "out",
                 tokens ? "read the traffic" : "run, cancel and read campaigns");
  }

  std::unique_ptr<CoordinatorServer> s(new CoordinatorServer(core, security, backup, players));
  // Standard health checking (grpc.health.v1) for probes, and reflection so
  // that generic tools can list and call the services.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (tls) {
    grpc::SslServerCredentialsOptions opts(
        security.tls_client_ca_pem.empty()
            ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    opts.pem_root_certs = security.tls_client_ca_pem;
    opts.pem_key_cert_pairs.push_back({security.tls_key_pem, security.tls_cert_pem});
    credentials = grpc::SslServerCredentials(opts);
  }
  builder.AddListeningPort(address, credentials, &s->port_);
  builder.SetMaxReceiveMessageSize(static_cast<int>(kMaxReceiveBytes));
  // The synchronous calls (NextPuzzle, GetPlayer, the streams) run on gRPC's
  // poller threads, which by default it keeps at most two of: with a few
  // calls in flight it starts and ends a thread for many of them, and
  // thread starts are dear. Up to 16 stay (docs/players.md, "The
  // synchronous server's threads, again").
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 16);
  builder.RegisterService(&s->campaigns_);
  builder.RegisterService(&s->workers_);
  builder.RegisterService(&s->store_);
  builder.RegisterService(&s->admin_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  creators.push_back(MalformedRequestInterceptorFactory());  // first: metrics see its status
  if (rpc_metrics) creators.push_back(rpc_metrics->InterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(creators));
  s->server_ = builder.BuildAndStart();
  if (!s->server_ || s->port_ == 0) {
    return Status::Unavailable("cannot listen on " + address + " (address in use or invalid)");
  }
  return s;
}

Result<std::unique_ptr<grpc::Server>> StartHealthServer(const std::string& address, int* port) {
  FOUNDRY_RETURN_IF_ERROR(CheckListenAddress("--health-listen", address, /*unix_ok=*/true));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), port);
  auto server = builder.BuildAndStart();
  if (!server || *port == 0) {
    return Status::Unavailable("cannot listen on " + address + " for health checks");
  }
  return server;
}

void CoordinatorServer::Shutdown(std::chrono::milliseconds grace) {
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now() + grace);
    server_.reset();
  }
}

}  // namespace foundry::coordinator
