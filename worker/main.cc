// foundry-worker: leases jobs from a coordinator and runs them on oneTBB.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "common/metrics_endpoint.h"
#include "worker/grpc_job_source.h"
#include "worker/lease_loop.h"

namespace {

// First SIGTERM/SIGINT: drain (finish and submit the jobs in progress, lease
// no more). Second: stop at once (leases lapse and the jobs run elsewhere).
std::atomic<bool> g_drain{false};
std::atomic<bool> g_stop{false};
extern "C" void OnSignal(int) {
  if (g_drain.exchange(true)) g_stop = true;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"foundry-worker: runs puzzle generation jobs leased from a coordinator"};
  std::string coordinator;
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  std::string metrics_listen;
  std::string worker_id;
  int concurrent_jobs = 2;
  app.add_option("--coordinator", coordinator, "Coordinator address, host:port")->required();
  app.add_option("--threads", threads, "Generation threads (default: all cores)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--metrics-listen", metrics_listen,
                 "Serve Prometheus /metrics on this address (e.g. 127.0.0.1:9101); off when empty");
  app.add_option("--worker-id", worker_id, "Name reported to the coordinator (default host:pid)");
  app.add_option("--concurrent-jobs", concurrent_jobs,
                 "Jobs in progress at once, so submitting one overlaps generating the next")
      ->check(CLI::Range(1, 16));
  foundry::ClientSecurityFiles security_files;
  app.add_option("--tls-ca", security_files.tls_ca, "PEM CA of the coordinator's certificate (TLS on)");
  app.add_option("--tls-cert", security_files.tls_cert, "PEM client certificate (mutual TLS)");
  app.add_option("--tls-key", security_files.tls_key, "PEM private key of --tls-cert");
  app.add_option("--token-file", security_files.token_file,
                 "File holding the worker bearer token (an admin token works too)");
  std::string forge;
  // Tests only (worker/forgery.h): an empty group hides it from --help.
  app.add_option("--forge", forge, "Lie to the coordinator: KIND[:RATE[:AFTER_JOBS]]")->group("");
  CLI11_PARSE(app, argc, argv);
  std::unique_ptr<foundry::worker::Forgery> forgery;
  if (!forge.empty()) {
    auto options = foundry::worker::Forgery::Parse(forge);
    if (!options.ok()) {
      fmt::print(stderr, "foundry-worker: --forge: {}\n", options.status().message());
      return 1;
    }
    forgery = std::make_unique<foundry::worker::Forgery>(*options);
    fmt::print(stderr, "foundry-worker: FORGING ({}): this worker lies, for tests only\n", forge);
  }
  auto security = foundry::ClientSecurity::Load(security_files);
  if (!security.ok()) {
    fmt::print(stderr, "foundry-worker: {}\n", security.status().message());
    return 1;
  }

  if (worker_id.empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    worker_id = fmt::format("{}:{}", host, getpid());
  }

  auto registry = std::make_shared<prometheus::Registry>();
  foundry::worker::WorkerMetrics metrics(*registry);
  std::unique_ptr<foundry::MetricsEndpoint> endpoint;
  if (!metrics_listen.empty()) {
    auto ep = foundry::MetricsEndpoint::Start(metrics_listen, registry);
    if (!ep.ok()) {
      fmt::print(stderr, "foundry-worker: {}\n", ep.status().message());
      return 1;
    }
    endpoint = std::move(*ep);
    metrics.SetThreads(threads);
    metrics.StartCpuSampler();
    fmt::print("foundry-worker: metrics on port {}\n", endpoint->port());
  }

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);

  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(16 << 20);
  auto channel = security->Connect(coordinator, args);
  foundry::worker::GrpcJobSource source(channel, std::chrono::seconds(30), *security);
  foundry::worker::JobExecutor executor(threads);
  fmt::print("foundry-worker {}: {} threads, coordinator {}\n", worker_id, threads, coordinator);
  std::fflush(stdout);

  std::vector<std::thread> loops;
  std::vector<std::unique_ptr<foundry::worker::LeaseLoop>> lease_loops;
  for (int i = 0; i < concurrent_jobs; ++i) {
    foundry::worker::LeaseLoopOptions opts;
    opts.worker_id = worker_id;
    opts.build = FOUNDRY_VERSION;
    opts.forgery = forgery.get();
    if (forgery && forgery->kind() == foundry::worker::ForgeryKind::kStaleVersion) {
      opts.generation_fingerprint = "0000000000000000";
      opts.build = "0.0.0-stale";
    }
    lease_loops.push_back(
        std::make_unique<foundry::worker::LeaseLoop>(source, executor, &metrics, opts));
    loops.emplace_back([&loop = *lease_loops.back()] {
      loop.Run(g_drain, g_stop);
      // A refusal ends every loop of this worker, not only the one told.
      if (!loop.refused().empty()) g_drain = true;
    });
  }
  for (auto& t : loops) t.join();
  uint64_t jobs = 0;
  std::string refused;
  for (auto& l : lease_loops) {
    jobs += l->jobs_completed();
    if (refused.empty()) refused = l->refused();
  }
  if (!refused.empty()) {
    fmt::print(stderr, "foundry-worker {}: refused by the coordinator: {}\n", worker_id, refused);
    return 3;
  }
  fmt::print("foundry-worker {}: stopped after {} jobs\n", worker_id, jobs);
  return 0;
}
