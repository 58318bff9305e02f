// foundry-coordinator: campaigns, job leasing, the puzzle store, over gRPC.
#include <atomic>
#include <csignal>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/metrics_endpoint.h"
#include "coordinator/server.h"

namespace {

std::atomic<bool> g_stop{false};
extern "C" void OnSignal(int) { g_stop = true; }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"foundry-coordinator: leases generation jobs and serves the puzzle store"};
  std::string listen = "127.0.0.1:7420";
  std::string db;
  std::string metrics_listen;
  double lease_seconds = 15;
  bool sync = false;
  app.add_option("--listen", listen, "gRPC address (loopback by default; port 0 picks one)");
  app.add_option("--db", db, "RocksDB store directory (created when missing)")->required();
  app.add_option("--metrics-listen", metrics_listen,
                 "Serve Prometheus /metrics on this address; off when empty");
  app.add_option("--lease-seconds", lease_seconds, "A lease lapses this long after its last heartbeat")
      ->check(CLI::Range(0.2, 3600.0));
  app.add_flag("--sync", sync, "fsync the write-ahead log on every commit (survives power loss)");
  CLI11_PARSE(app, argc, argv);

  foundry::storage::StoreOptions store_options;
  store_options.sync_writes = sync;
  auto store = foundry::storage::Store::Open(db, store_options);
  if (!store.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", store.status().ToString());
    return 1;
  }
  auto registry = std::make_shared<prometheus::Registry>();
  foundry::coordinator::CoordinatorMetrics metrics(*registry);
  foundry::coordinator::RpcMetrics rpc_metrics(*registry);
  // RocksDB figures, campaign states and per-level counts, read every 2 s.
  foundry::coordinator::StoreStatsPoller store_stats(**store, metrics);
  foundry::coordinator::CoordinatorOptions options;
  options.lease_ttl = std::chrono::milliseconds(static_cast<int64_t>(lease_seconds * 1000));
  options.heartbeat_interval = std::max(options.lease_ttl / 5, std::chrono::milliseconds(50));
  auto core = foundry::coordinator::Coordinator::Open(store->get(), options, &metrics);
  if (!core.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", core.status().ToString());
    return 1;
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
  auto server = foundry::coordinator::CoordinatorServer::Start(listen, **core, &rpc_metrics);
  if (!server.ok()) {
    fmt::print(stderr, "foundry-coordinator: {}\n", server.status().message());
    return 1;
  }
  // Scripts and tests read the bound ports from this line.
  fmt::print("foundry-coordinator: listening on port {} metrics port {} db {}\n",
             (*server)->port(), endpoint ? endpoint->port() : 0, db);
  std::fflush(stdout);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  fmt::print("foundry-coordinator: shutting down\n");
  (*server)->Shutdown();
  return 0;
}
