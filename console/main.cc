// foundry-console: the web console (docs/console.md). A gRPC client of one
// coordinator that serves a page to watch campaigns, browse the store and
// see and play puzzles.
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "console/console_server.h"
#include "console/coordinator_link.h"

namespace {

std::atomic<bool> g_stop{false};
extern "C" void OnSignal(int) { g_stop = true; }

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"foundry-console: a web console for a Puzzle Foundry coordinator"};
  std::string coordinator;
  foundry::ClientSecurityFiles security_files;
  foundry::console::ConsoleOptions options;
  int poll_ms = 2000;
  app.add_option("--coordinator", coordinator, "Coordinator address, host:port")->required();
  app.add_option("--listen", options.listen,
                 "host:port to serve on (default 127.0.0.1:8080; port 0 picks one). Off loopback "
                 "it needs --https-cert/--https-key and then always asks for a token login");
  app.add_option("--token-file", security_files.token_file,
                 "The console's own coordinator token (reader or admin): its polling, and what "
                 "visitors may do when no login is required");
  app.add_option("--tls-ca", security_files.tls_ca, "PEM CA of the coordinator's certificate (TLS on)");
  app.add_option("--tls-cert", security_files.tls_cert, "PEM client certificate to the coordinator (mutual TLS)");
  app.add_option("--tls-key", security_files.tls_key, "PEM private key of --tls-cert");
  app.add_option("--https-cert", options.https_cert_file, "PEM certificate chain of the console's own HTTPS");
  app.add_option("--https-key", options.https_key_file, "PEM private key of --https-cert");
  app.add_flag("--require-login", options.require_login,
               "Ask every visitor for a coordinator token even on loopback");
  app.add_option("--poll-ms", poll_ms, "How often the console reads the coordinator's totals (ms)")
      ->check(CLI::Range(200, 60000));
  CLI11_PARSE(app, argc, argv);

  auto security = foundry::ClientSecurity::Load(security_files);
  if (!security.ok()) {
    fmt::print(stderr, "foundry-console: {}\n", security.status().message());
    return 2;
  }
  options.own_token = security->token();
  options.poll_interval = std::chrono::milliseconds(poll_ms);

  foundry::console::CoordinatorLink link(coordinator, *security);
  auto server = foundry::console::ConsoleServer::Start(link, options);
  if (!server.ok()) {
    fmt::print(stderr, "foundry-console: {}\n", server.status().message());
    return 2;
  }
  fmt::print("foundry-console: serving {} for the coordinator at {}\n", (*server)->url(), coordinator);
  std::fflush(stdout);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::thread stopper([&] {
    while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    (*server)->Stop();
  });
  (*server)->Wait();
  g_stop = true;
  stopper.join();
  return 0;
}
