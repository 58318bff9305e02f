// foundry-console: the web console (docs/console.md). A gRPC client of one
// coordinator that serves a page to watch campaigns, browse the store and
// see and play puzzles.
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "common/listen_address.h"
#include "common/number_options.h"
#include "common/stop_signals.h"
#include "console/console_server.h"
#include "console/coordinator_link.h"

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
  app.add_flag("--allow-shared-token-file", security_files.allow_shared_token_file,
               "Read --token-file even when the group or others may access it (refused by "
               "default, as ssh refuses such keys)");
  app.add_option("--tls-ca", security_files.tls_ca,
                 "PEM CA of the coordinator's certificate (TLS on)");
  app.add_option("--tls-cert", security_files.tls_cert,
                 "PEM client certificate to the coordinator (mutual TLS)");
  app.add_option("--tls-key", security_files.tls_key, "PEM private key of --tls-cert");
  app.add_option("--https-cert", options.https_cert_file,
                 "PEM certificate chain of the console's own HTTPS");
  app.add_option("--https-key", options.https_key_file, "PEM private key of --https-cert");
  app.add_flag("--require-login", options.require_login,
               "Ask every visitor for a coordinator token even on loopback");
  app.add_option("--poll-ms", poll_ms, "How often the console reads the coordinator's totals (ms)")
      ->check(CLI::Range(200, 60000));
  foundry::console::GateLimits& limits = options.limits;
  int header_timeout_ms = static_cast<int>(limits.header_timeout.count());
  int body_timeout_ms = static_cast<int>(limits.body_timeout.count());
  app.add_option("--max-connections", limits.max_connections,
                 "Connections open at once, all clients together; past it a new one pushes out "
                 "the one waiting longest for its request")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--max-connections-per-client", limits.max_connections_per_client,
                 "Connections open at once from one client address; past it a new one pushes "
                 "out that client's longest-waiting one")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--header-timeout-ms", header_timeout_ms,
                 "A request's line and headers (and a TLS handshake, or the wait for the next "
                 "request on a kept-alive connection) must arrive whole within this; else 408")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  app.add_option("--body-timeout-ms", body_timeout_ms,
                 "A request's body (at most 1 MiB, chunked or not) must then arrive whole within "
                 "this, and its answer be taken within this; else 408")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  foundry::StrictNumberOptions(app);
  CLI11_PARSE(app, argc, argv);
  if (const foundry::Status s = foundry::CheckDialAddress("--coordinator", coordinator); !s.ok()) {
    fmt::print(stderr, "foundry-console: {}\n", s.message());
    return 2;
  }
  limits.header_timeout = std::chrono::milliseconds(header_timeout_ms);
  limits.body_timeout = std::chrono::milliseconds(body_timeout_ms);

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
  fmt::print("foundry-console: serving {} for the coordinator at {}\n", (*server)->url(),
             coordinator);
  std::fflush(stdout);

  foundry::InstallStopSignals();
  std::thread stopper([&] {
    foundry::WaitForStop();
    (*server)->Stop();
  });
  (*server)->Wait();
  foundry::StopFlag() = true;
  stopper.join();
  return 0;
}
