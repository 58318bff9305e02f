// foundry-coordinator: campaigns, job leasing, the puzzle store, over gRPC.

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "common/metrics_endpoint.h"
#include "common/number_options.h"
#include "common/stop_signals.h"
#include "common/token_file.h"
#include "coordinator/address_file.h"
#include "coordinator/server.h"

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"foundry-coordinator: leases generation jobs and serves the puzzle store"};
  std::string listen = "127.0.0.1:7420";
  std::string db;
  std::string metrics_listen;
  double lease_seconds = 15;
  bool sync = false;
  uint64_t block_cache_mb = foundry::storage::StoreOptions().block_cache_bytes >> 20;
  uint64_t row_cache_mb = foundry::storage::StoreOptions().row_cache_bytes >> 20;
  uint64_t min_free_disk_mb = foundry::storage::StoreOptions().min_free_bytes >> 20;
  app.add_option(
      "--listen", listen,
      "gRPC address, HOST:PORT or unix:PATH (default 127.0.0.1:7420; port 0 picks one). Off "
      "loopback it needs --tls-cert/--tls-key (or --insecure)");
  app.add_option("--db", db, "RocksDB store directory (created when missing)")->required();
  app.add_option(
      "--metrics-listen", metrics_listen,
      "Serve Prometheus /metrics on this HOST:PORT (e.g. 127.0.0.1:9420); off when empty");
  app.add_option("--lease-seconds", lease_seconds,
                 "A lease lapses this long after its last heartbeat")
      ->check(CLI::Range(0.2, 3600.0));
  app.add_flag("--sync", sync, "fsync the write-ahead log on every commit (survives power loss)");
  app.add_option("--block-cache-mb", block_cache_mb,
                 "RocksDB block cache in MiB, shared by the store's column families")
      ->check(CLI::Range(uint64_t{8}, uint64_t{1} << 20))
      ->capture_default_str();
  app.add_option("--min-free-disk-mb", min_free_disk_mb,
                 "Hold commits (reads go on) while the store's disk has less free space than "
                 "this, in MiB; they resume by themselves when space returns. 0 = never")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--row-cache-mb", row_cache_mb,
                 "RocksDB row cache in MiB: whole puzzle records for reads by id; 0 = none")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 20))
      ->capture_default_str();
  std::string tls_cert, tls_key, tls_client_ca, admin_token_file, reader_token_file,
      worker_token_file;
  bool insecure = false;
  app.add_option("--tls-cert", tls_cert, "PEM server certificate chain (TLS on with --tls-key)");
  app.add_option("--tls-key", tls_key, "PEM private key of --tls-cert");
  app.add_option(
      "--tls-client-ca", tls_client_ca,
      "PEM CA of client certificates: workers and clients must present one (mutual TLS)");
  app.add_option("--admin-token-file", admin_token_file,
                 "File holding the admin bearer token (campaigns and the worker protocol)");
  app.add_option("--reader-token-file", reader_token_file,
                 "File holding the reader bearer token (reads only)");
  app.add_option("--worker-token-file", worker_token_file,
                 "File holding the worker bearer token (lease, heartbeat and submit only)");
  bool allow_shared_token_file = false;
  app.add_flag("--allow-shared-token-file", allow_shared_token_file,
               "Read the token files even when the group or others may access them (refused by "
               "default, as ssh refuses such keys)");
  double sample_rate = 0.03;
  uint32_t probation_jobs = 4;
  app.add_option("--spot-check-rate", sample_rate,
                 "Share of a trusted worker's candidates another worker re-generates")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--probation-jobs", probation_jobs,
                 "Jobs of a new worker re-generated in full before it is trusted")
      ->check(CLI::Range(0u, 1000000u));
  std::string health_listen;
  app.add_option("--health-listen", health_listen,
                 "Also serve only the gRPC health service, in plaintext, on this HOST:PORT (for "
                 "probes that cannot speak TLS)");
  std::string address_file, advertise_host;
  app.add_option("--address-file", address_file,
                 "Once listening, write HOST:PORT to this file (replaced atomically, removed at "
                 "exit): the rendezvous of workers started with --coordinator-file");
  app.add_option("--advertise-host", advertise_host,
                 "Host name or address to write to --address-file (default: the --listen host, "
                 "or this machine's host name when that is a wildcard such as 0.0.0.0)");
  foundry::coordinator::StreamLimits stream_limits;
  double stream_idle_seconds = 60;
  app.add_option("--max-streams", stream_limits.max_streams,
                 "Export streams open at once, all clients together (each holds a thread and a "
                 "store snapshot); more are refused with RESOURCE_EXHAUSTED")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--max-streams-per-client", stream_limits.max_streams_per_client,
                 "Export streams open at once per client (its bearer token, or its address "
                 "without one)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  uint64_t max_submission_mb = foundry::coordinator::ServerSecurity().submission_bytes >> 20;
  app.add_option("--max-submission-mb", max_submission_mb,
                 "Job submissions held at once, all workers together, in MiB (each is kept "
                 "until its job is settled); a submission past it is refused with "
                 "RESOURCE_EXHAUSTED and the worker sends it again later")
      ->check(CLI::Range(uint64_t{16}, uint64_t{1} << 20))
      ->capture_default_str();
  int max_submit_streams = foundry::coordinator::ServerSecurity().max_submit_streams;
  app.add_option("--max-submit-streams", max_submit_streams,
                 "SubmitResults streams open at once, all workers together (each holds a "
                 "thread); more are refused with RESOURCE_EXHAUSTED and the worker sends again "
                 "later. An idle one ends after --stream-idle-seconds")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option(
         "--stream-idle-seconds", stream_idle_seconds,
         "End an export stream whose client has read nothing for this long (and a submission "
         "whose client sent nothing)")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  std::string backup_dir;
  app.add_option("--backup-dir", backup_dir,
                 "Where scheduled backups go (foundry backup --coordinator --to): read at start "
                 "so that foundry_backup_last_success_timestamp_seconds is known before the "
                 "next backup; nothing is written there by this flag");
  uint64_t backup_rate_mb = 0;
  app.add_option("--backup-rate-mb", backup_rate_mb,
                 "Online backups copy at most this many MiB a second (0: no limit), to leave "
                 "campaigns more of the machine")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 20))
      ->capture_default_str();
  foundry::coordinator::RatingSettings rating_settings;
  foundry::coordinator::AddRatingFlags(app, rating_settings);
  app.add_flag("--insecure", insecure,
               "Allow listening off loopback without TLS or tokens (closed networks only)");
  foundry::StrictNumberOptions(app);
  CLI11_PARSE(app, argc, argv);

  // Every refusal comes before the store is opened: a refused start leaves
  // nothing on disk (no store directory created for nothing).
  if (auto checked = foundry::coordinator::CheckRatingSettings(rating_settings); !checked.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", checked.message());
    return 1;
  }
  foundry::coordinator::ServerSecurity security;
  security.allow_insecure_remote = insecure;
  stream_limits.idle_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(stream_idle_seconds * 1000));
  security.streams = stream_limits;
  security.submission_bytes = static_cast<size_t>(max_submission_mb) << 20;
  security.max_submit_streams = max_submit_streams;
  for (auto [path, out] :
       {std::pair{&tls_cert, &security.tls_cert_pem}, std::pair{&tls_key, &security.tls_key_pem},
        std::pair{&tls_client_ca, &security.tls_client_ca_pem},
        std::pair{&admin_token_file, &security.admin_token},
        std::pair{&reader_token_file, &security.reader_token},
        std::pair{&worker_token_file, &security.worker_token}}) {
    if (path->empty()) continue;
    const bool token = out == &security.admin_token || out == &security.reader_token ||
                       out == &security.worker_token;
    auto content = token ? foundry::ReadTokenFile(*path, allow_shared_token_file)
                         : foundry::ReadSecretFile(*path);
    if (!content.ok()) {
      fmt::print(stderr, "foundry-coordinator: {}\n", content.status().message());
      return 1;
    }
    *out = std::move(*content);
  }
  for (std::string* token :
       {&security.admin_token, &security.reader_token, &security.worker_token}) {
    const auto first = token->find_first_not_of(" \t\r\n");
    const auto last = token->find_last_not_of(" \t\r\n");
    *token = first == std::string::npos ? "" : token->substr(first, last - first + 1);
  }
  if ((!reader_token_file.empty() || !worker_token_file.empty()) && admin_token_file.empty()) {
    fmt::print(stderr,
               "foundry-coordinator: --reader-token-file and --worker-token-file need "
               "--admin-token-file too\n");
    return 1;
  }
  if (auto checked = foundry::coordinator::CheckServerSecurity(listen, security); !checked.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", checked.message());
    return 1;
  }
  auto registry = std::make_shared<prometheus::Registry>();
  foundry::coordinator::CoordinatorMetrics metrics(*registry);
  foundry::coordinator::RpcMetrics rpc_metrics(*registry);
  foundry::coordinator::BackupMetrics backup_metrics(*registry);
  foundry::coordinator::PlayerMetrics player_metrics(*registry);
  if (!backup_dir.empty()) {
    // The age of the last good backup is known from the start, not only
    // after this process took one (the FoundryBackupTooOld alert).
    auto backups = foundry::storage::ListBackups(backup_dir);
    if (backups.ok() && !backups->empty()) {
      backup_metrics.SetLastSuccess(backups->back().timestamp_unix, backups->back().size_bytes);
    }
  }
  std::unique_ptr<foundry::MetricsEndpoint> endpoint;
  if (!metrics_listen.empty()) {
    auto ep = foundry::MetricsEndpoint::Start(metrics_listen, registry);
    if (!ep.ok()) {
      fmt::print(stderr, "foundry-coordinator: {}\n", ep.status().message());
      return 1;
    }
    endpoint = std::move(*ep);
  }
  foundry::storage::StoreOptions store_options;
  store_options.sync_writes = sync;
  store_options.block_cache_bytes = block_cache_mb << 20;
  store_options.row_cache_bytes = row_cache_mb << 20;
  store_options.min_free_bytes = min_free_disk_mb << 20;
  auto store = foundry::storage::Store::Open(db, store_options);
  if (!store.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", store.status().ToString());
    return 1;
  }
  // RocksDB figures, campaign states and per-level counts, read every 2 s.
  foundry::coordinator::StoreStatsPoller store_stats(**store, metrics);
  foundry::coordinator::CoordinatorOptions options;
  options.lease_ttl = std::chrono::milliseconds(static_cast<int64_t>(lease_seconds * 1000));
  options.heartbeat_interval = std::max(options.lease_ttl / 5, std::chrono::milliseconds(50));
  options.trust.sample_rate = sample_rate;
  options.trust.probation_jobs = probation_jobs;
  auto core = foundry::coordinator::Coordinator::Open(store->get(), options, &metrics);
  if (!core.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", core.status().ToString());
    return 1;
  }
  foundry::coordinator::BackupSettings backup_settings;
  backup_settings.metrics = &backup_metrics;
  backup_settings.rate_limit_bytes_per_second = backup_rate_mb << 20;
  const foundry::coordinator::PlayerSettings player_settings{rating_settings, &player_metrics};
  auto server = foundry::coordinator::CoordinatorServer::Start(
      listen, **core, security, &rpc_metrics, backup_settings, player_settings);
  if (!server.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", server.status().message());
    return 1;
  }
  std::unique_ptr<grpc::Server> health;
  int health_port = 0;
  if (!health_listen.empty()) {
    auto h = foundry::coordinator::StartHealthServer(health_listen, &health_port);
    if (!h.ok()) {
      fmt::print(stderr, "foundry-coordinator: {}\n", h.status().message());
      return 1;
    }
    health = std::move(*h);
  }
  // Scripts and tests read the bound ports from this line.
  fmt::print("foundry-coordinator: listening on port {} metrics port {} db {} health port {}\n",
             (*server)->port(), endpoint ? endpoint->port() : 0, db, health_port);
  std::fflush(stdout);
  std::string advertised;
  if (!address_file.empty()) {
    advertised = fmt::format("{}:{}", foundry::coordinator::AdvertisedHost(listen, advertise_host),
                             (*server)->port());
    if (auto written = foundry::coordinator::WriteAddressFile(address_file, advertised);
        !written.ok()) {
      fmt::print(stderr, "foundry-coordinator: {}\n", written.message());
      (*server)->Shutdown();
      return 1;
    }
    fmt::print("foundry-coordinator: address {} written to {}\n", advertised, address_file);
    std::fflush(stdout);
  }

  foundry::InstallStopSignals();
  foundry::WaitForStop();
  fmt::print("foundry-coordinator: shutting down\n");
  if (!address_file.empty()) foundry::coordinator::RemoveAddressFile(address_file, advertised);
  (*server)->Shutdown();
  if (health) health->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  return 0;
}
