// foundry-worker: leases jobs from a coordinator and runs them on oneTBB.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "common/client_security.h"
#include "common/duration.h"
#include "common/grpc_runtime.h"
#include "common/listen_address.h"
#include "common/metrics_endpoint.h"
#include "common/number_options.h"
#include "common/secure_random.h"
#include "common/stop_signals.h"
#include "worker/coordinator_address.h"
#include "worker/grpc_job_source.h"
#include "worker/idle_watch.h"
#include "worker/lease_loop.h"

namespace {

using namespace std::chrono_literals;

// SIGTERM (a batch scheduler's walltime, preemption, scancel; Kubernetes'
// scale-down): stop at once, handing every lease back so that its job is
// re-leased now rather than when the lease lapses. SIGINT (Ctrl-C): the
// first drains (finish and submit the jobs in progress, lease no more), the
// second stops as SIGTERM does.
// (common/stop_signals.h, InterruptMeans::kDrain.)
std::atomic<bool>& g_drain = foundry::DrainFlag();
std::atomic<bool>& g_stop = foundry::StopFlag();

// After a stop, how long the jobs in progress get to notice before the
// process exits anyway (their leases are already handed back).
constexpr auto kStopGrace = 5s;

// Exit codes: 0 stopped, idle, or the campaign ended; 1 bad command line or
// set-up; 3 refused by the coordinator (or its certificate), for good.
constexpr int kRefused = 3;

struct Flags {
  std::string coordinator;
  std::string coordinator_file;
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  std::string metrics_listen;
  std::string worker_id;
  int concurrent_jobs = 2;
  std::string exit_when_idle;
  std::string campaign;
  foundry::ClientSecurityFiles security;
  std::string forge;
};

// Waits for `path` to hold an address. Empty when the worker should exit
// instead (a signal, or no address for longer than `idle_limit`).
std::optional<std::string> AwaitAddressFile(const std::string& path,
                                            std::optional<std::chrono::milliseconds> idle_limit,
                                            const foundry::worker::IdleWatch& idle) {
  bool told = false;
  while (!g_stop.load() && !g_drain.load()) {
    auto address = foundry::worker::ReadCoordinatorAddress(path);
    if (address.ok()) return *address;
    if (address.status().code() != foundry::Status::Code::kNotFound) {
      fmt::print(stderr, "foundry-worker: {}\n", address.status().message());
      return std::nullopt;
    }
    if (!told) {
      fmt::print(stderr, "foundry-worker: waiting for the coordinator's address in {}\n", path);
      told = true;
    }
    if (idle_limit && idle.IdleFor(*idle_limit)) {
      fmt::print(stderr, "foundry-worker: no coordinator address for {} ms: exiting\n",
                 idle_limit->count());
      return std::nullopt;
    }
    std::this_thread::sleep_for(250ms);
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"foundry-worker: runs puzzle generation jobs leased from a coordinator"};
  Flags f;
  auto* coordinator_opt =
      app.add_option("--coordinator", f.coordinator, "Coordinator address, host:port");
  app.add_option("--coordinator-file", f.coordinator_file,
                 "Read the coordinator's host:port from this file (a shared filesystem's "
                 "rendezvous, written by foundry-coordinator --address-file), waiting until it "
                 "appears and following it when it changes")
      ->excludes(coordinator_opt);
  app.add_option("--threads", f.threads, "Generation threads (default: all cores)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--metrics-listen", f.metrics_listen,
                 "Serve Prometheus /metrics on this address (e.g. 127.0.0.1:9101); off when empty");
  app.add_option("--worker-id", f.worker_id, "Name reported to the coordinator (default host:pid)");
  app.add_option("--concurrent-jobs", f.concurrent_jobs,
                 "Jobs in progress at once, so submitting one overlaps generating the next")
      ->check(CLI::Range(1, 16));
  app.add_option("--exit-when-idle", f.exit_when_idle,
                 "Exit 0 after this long with no job (none offered, or the coordinator "
                 "unreachable), e.g. 30s, 10m: for batch jobs and job arrays");
  app.add_option("--campaign", f.campaign, "Work only for this campaign; exit 0 when it has ended");
  app.add_option("--tls-ca", f.security.tls_ca, "PEM CA of the coordinator's certificate (TLS on)");
  app.add_option("--tls-cert", f.security.tls_cert, "PEM client certificate (mutual TLS)");
  app.add_option("--tls-key", f.security.tls_key, "PEM private key of --tls-cert");
  app.add_option("--token-file", f.security.token_file,
                 "File holding the worker bearer token (an admin token works too)");
  app.add_flag("--allow-shared-token-file", f.security.allow_shared_token_file,
               "Read --token-file even when the group or others may access it");
  // Tests only (worker/forgery.h): an empty group hides it from --help.
  app.add_option("--forge", f.forge, "Lie to the coordinator: KIND[:RATE[:AFTER_JOBS]]")->group("");
  foundry::StrictNumberOptions(app);
  CLI11_PARSE(app, argc, argv);
  if (f.coordinator.empty() && f.coordinator_file.empty()) {
    fmt::print(stderr,
               "foundry-worker: --coordinator HOST:PORT or --coordinator-file PATH is required\n");
    return 1;
  }
  if (!f.coordinator.empty()) {
    if (foundry::Status s = foundry::CheckDialAddress("--coordinator", f.coordinator); !s.ok()) {
      fmt::print(stderr, "foundry-worker: {}\n", s.message());
      return 1;
    }
  }
  std::optional<std::chrono::milliseconds> idle_limit;
  if (!f.exit_when_idle.empty()) {
    auto d = foundry::ParseDuration(f.exit_when_idle);
    if (!d.ok()) {
      fmt::print(stderr, "foundry-worker: --exit-when-idle: {}\n", d.status().message());
      return 1;
    }
    idle_limit = *d;
  }
  std::unique_ptr<foundry::worker::Forgery> forgery;
  if (!f.forge.empty()) {
    auto options = foundry::worker::Forgery::Parse(f.forge);
    if (!options.ok()) {
      fmt::print(stderr, "foundry-worker: --forge: {}\n", options.status().message());
      return 1;
    }
    forgery = std::make_unique<foundry::worker::Forgery>(*options);
    fmt::print(stderr, "foundry-worker: FORGING ({}): this worker lies, for tests only\n", f.forge);
  }
  auto security = foundry::ClientSecurity::Load(f.security);
  if (!security.ok()) {
    fmt::print(stderr, "foundry-worker: {}\n", security.status().message());
    return 1;
  }

  if (f.worker_id.empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    f.worker_id = fmt::format("{}:{}", host, getpid());
  }

  auto registry = std::make_shared<prometheus::Registry>();
  foundry::worker::WorkerMetrics metrics(*registry);
  std::unique_ptr<foundry::MetricsEndpoint> endpoint;
  if (!f.metrics_listen.empty()) {
    auto ep = foundry::MetricsEndpoint::Start(f.metrics_listen, registry);
    if (!ep.ok()) {
      fmt::print(stderr, "foundry-worker: {}\n", ep.status().message());
      return 1;
    }
    endpoint = std::move(*ep);
    metrics.SetThreads(f.threads);
    metrics.StartCpuSampler();
    fmt::print("foundry-worker: metrics on port {}\n", endpoint->port());
  }

  foundry::InstallStopSignals(foundry::InterruptMeans::kDrain);

  foundry::worker::IdleWatch idle;
  std::string address = f.coordinator;
  if (!f.coordinator_file.empty()) {
    auto found = AwaitAddressFile(f.coordinator_file, idle_limit, idle);
    if (!found) return 0;
    address = *found;
  }

  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(16 << 20);
  foundry::worker::GrpcJobSource source(security->Connect(address, args), 30s, *security);
  foundry::worker::JobExecutor executor(f.threads);
  fmt::print("foundry-worker {}: {} threads, coordinator {}{}\n", f.worker_id, f.threads, address,
             f.campaign.empty() ? "" : ", campaign " + f.campaign);
  std::fflush(stdout);

  // Raised when the worker leaves for being idle: a finished job whose
  // coordinator is gone is then dropped, not retried for a minute.
  std::atomic<bool> leaving_idle{false};
  std::vector<std::thread> loops;
  std::vector<std::unique_ptr<foundry::worker::LeaseLoop>> lease_loops;
  std::atomic<int> running{f.concurrent_jobs};
  foundry::worker::CoordinatorNotices notices;  // told once per process, not once per loop
  // Holds --worker-id at the coordinator for this process alone.
  const std::string worker_key = foundry::SecureRandomHex(16);
  for (int i = 0; i < f.concurrent_jobs; ++i) {
    foundry::worker::LeaseLoopOptions opts;
    opts.notices = &notices;
    opts.worker_id = f.worker_id;
    opts.worker_key = worker_key;
    opts.build = FOUNDRY_VERSION;
    opts.forgery = forgery.get();
    opts.campaign_id = f.campaign;
    opts.idle = &idle;
    opts.abandon_submissions = &leaving_idle;
    if (forgery && forgery->kind() == foundry::worker::ForgeryKind::kStaleVersion) {
      opts.generation_fingerprint = "0000000000000000";
      opts.build = "0.0.0-stale";
    }
    lease_loops.push_back(
        std::make_unique<foundry::worker::LeaseLoop>(source, executor, &metrics, opts));
    loops.emplace_back([&loop = *lease_loops.back(), &running] {
      loop.Run(g_drain, g_stop);
      // A refusal or the campaign's end ends every loop of this worker.
      if (!loop.refused().empty() || loop.campaign_ended()) g_drain = true;
      --running;
    });
  }

  // Watch over the loops: idleness, a moved coordinator, a stop that takes
  // too long.
  std::optional<std::chrono::steady_clock::time_point> stop_seen;
  bool idle_exit = false;
  auto next_address_check = std::chrono::steady_clock::now() + 1s;
  while (running.load() > 0) {
    std::this_thread::sleep_for(50ms);
    const auto now = std::chrono::steady_clock::now();
    if (idle_limit && !g_drain.load() && idle.IdleFor(*idle_limit, now)) {
      fmt::print("foundry-worker {}: no job for {} ms: exiting\n", f.worker_id,
                 idle_limit->count());
      std::fflush(stdout);
      idle_exit = true;
      leaving_idle = true;
      g_drain = true;  // every loop is between jobs (or failing to submit): they return at once
    }
    if (!f.coordinator_file.empty() && now >= next_address_check) {
      next_address_check = now + 1s;
      // A requeued coordinator may come back on another host.
      if (auto moved = foundry::worker::ReadCoordinatorAddress(f.coordinator_file);
          moved.ok() && *moved != address) {
        fmt::print("foundry-worker {}: the coordinator moved to {}\n", f.worker_id, *moved);
        std::fflush(stdout);
        address = *moved;
        source.Redirect(security->Connect(address, args));
      }
    }
    if (g_stop.load() && !stop_seen) stop_seen = now;
    if (stop_seen && now - *stop_seen > kStopGrace) {
      // The leases are handed back; a job's candidate in progress may run
      // long (a large grid), and nothing of it is needed any more.
      fmt::print("foundry-worker {}: stopped (jobs in progress abandoned)\n", f.worker_id);
      std::fflush(stdout);
      std::_Exit(0);
    }
  }
  for (auto& t : loops) t.join();
  uint64_t jobs = 0;
  std::string refused;
  bool campaign_ended = false;
  for (auto& l : lease_loops) {
    jobs += l->jobs_completed();
    if (refused.empty()) refused = l->refused();
    campaign_ended = campaign_ended || l->campaign_ended();
  }
  int code = 0;
  if (!refused.empty()) {
    fmt::print(stderr, "foundry-worker {}: refused by the coordinator: {}\n", f.worker_id, refused);
    code = kRefused;
  } else {
    const char* why = campaign_ended ? "campaign ended" : idle_exit ? "idle" : "stopped";
    fmt::print("foundry-worker {}: {} after {} jobs\n", f.worker_id, why, jobs);
  }
  // Nothing is left to hand in or close, and the /metrics web server takes
  // up to 2 s to stop (its poll quantum): a stopped worker exits now.
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}
