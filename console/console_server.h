// ConsoleServer: the web console's HTTP(S) server. Serves the embedded page
// and the JSON API of docs/console-api.md, as a gRPC client of one
// coordinator.
//
// Security: on loopback it serves plain HTTP and, unless told to require a
// login, treats every visitor as the console's own token allows. Anywhere
// else it refuses to start without HTTPS, and every visitor logs in with a
// coordinator token (reader views, admin acts). POSTs need the session's
// CSRF token; every answer carries a Content-Security-Policy without inline
// script. Connections pass an HttpGate (http_gate.h) first: bounded per
// client and in all, each request read whole under deadlines before a
// thread answers it, bodies (chunked too) limited as they arrive.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "common/status.h"
#include "console/coordinator_link.h"
#include "console/http_gate.h"

namespace httplib {
class Server;
}

namespace foundry::console {

struct ConsoleApi;
class StorePoller;

struct ConsoleOptions {
  // host:port; port 0 picks a free one.
  std::string listen = "127.0.0.1:8080";
  // PEM files of the console's own HTTPS certificate and key.
  std::string https_cert_file, https_key_file;
  // Require a token login even on loopback (always on elsewhere).
  bool require_login = false;
  // The console's own coordinator token (history polling, and every call of
  // visitors who need no login). May be empty when the coordinator has no
  // tokens.
  std::string own_token;
  std::chrono::milliseconds poll_interval = std::chrono::seconds(2);
  // Connections, deadlines and sizes of requests (see GateLimits).
  GateLimits limits;
};

class ConsoleServer {
 public:
  // Binds and starts serving. FailedPrecondition when asked to listen off
  // loopback without HTTPS; InvalidArgument for unusable certificate files
  // or address; Unavailable when the port is taken.
  static Result<std::unique_ptr<ConsoleServer>> Start(const CoordinatorLink& link,
                                                      const ConsoleOptions& options);
  ~ConsoleServer();  // stops

  int port() const { return port_; }
  const std::string& url() const { return url_; }

  // Blocks until the server stops. Call from one thread only.
  void Wait();
  // Stops serving; safe from any thread (Wait() then returns).
  void Stop();

 private:
  ConsoleServer() = default;

  std::unique_ptr<StorePoller> poller_;
  std::unique_ptr<ConsoleApi> api_;
  std::unique_ptr<httplib::Server> http_;  // routes only: the gate reads and writes
  std::unique_ptr<HttpGate> gate_;
  std::thread thread_;
  int port_ = 0;
  std::string url_;
};

}  // namespace foundry::console
