// HttpGate: the console's listening socket and the gate every request passes
// before the HTTP library sees it.
//
// cpp-httplib 0.11 gives each connection a pool thread from accept on, and
// its read timeout applies to each recv alone: a client that trickles one
// header line every few seconds holds a thread indefinitely, and 8 such
// clients (the pool's size) stopped the console. Its body limit is not
// applied to chunked bodies, which it reads whole first. So the gate, one
// thread with poll(2), does what needs no thread per client: it accepts,
// bounds connections per client address and in all, makes the TLS
// handshake, reads each request's head and body under deadlines (a whole
// head within `header_timeout`, then a whole body within `body_timeout`,
// however the bytes trickle), frames it (request_framer.h: the body limit
// holds for chunked bodies as each chunk size arrives) and only then hands
// the complete request to a worker thread, which runs the library's routing
// on it (GateStream) and writes the answer. Slow clients cost a socket and a
// buffer, never a thread.
//
// When a client is at its connection limit, or all are in use, a new
// connection pushes out the one of that client (or of anybody) that has
// waited longest for its request and is not being answered: trickling
// sockets go first, and a request that arrives whole is never starved by
// them. When all are being answered, the newcomer gets 503.
//
// Thread safety: Run on one thread; Stop from any.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "console/gate_connection.h"
#include "console/request_framer.h"
#include "console/tls_session.h"

namespace foundry::console {

struct GateLimits {
  // Connections open at once, all clients together.
  int max_connections = 128;
  // Connections open at once from one client address.
  int max_connections_per_client = 32;
  // A request's head (and a TLS handshake, and the wait for the next request
  // on a kept-alive connection) must arrive whole within this.
  std::chrono::milliseconds header_timeout = std::chrono::seconds(10);
  // Its body must then arrive whole within this, and its answer be taken.
  std::chrono::milliseconds body_timeout = std::chrono::seconds(30);
  // Head and body sizes (the body limit holds for chunked bodies too).
  FrameLimits frame;
  // Threads that answer complete requests.
  int workers = 8;
};

class HttpGate {
 public:
  // Answers one complete request read from `stream` and writes the answer
  // to it; true when the connection may carry another request.
  using Handler = std::function<bool(httplib::Stream& stream)>;

  // Listens on host:port (port 0: a free one). `tls` (nullable) makes it
  // HTTPS. Unavailable when the address cannot be bound.
  static Result<std::unique_ptr<HttpGate>> Bind(const std::string& host, int port, TlsContext tls,
                                                GateLimits limits, Handler handler);
  ~HttpGate();
  HttpGate(const HttpGate&) = delete;
  HttpGate& operator=(const HttpGate&) = delete;

  int port() const { return port_; }
  // Serves until Stop(); answers in progress are finished first.
  void Run();
  // Makes Run() return; safe from any thread.
  void Stop();

 private:
  HttpGate(TlsContext tls, GateLimits limits, Handler handler);
  using Connection = GateConnection;

  void Accept();
  bool Admit(const std::string& client);
  bool EvictOldest(const std::string* client);
  // Each returns false when the connection is to be closed.
  bool OnReady(Connection& c);
  bool ReadRequest(Connection& c);
  bool FrameRequest(Connection& c);
  bool OnTimeout(Connection& c);
  bool Refuse(Connection& c, int status, const std::string& reason);
  void TakeReturned();
  void Close(uint64_t id);
  void Work();
  void Wake();

  const TlsContext tls_;
  const GateLimits limits_;
  const Handler handler_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;
  int port_ = 0;
  uint64_t next_id_ = 1;
  std::map<uint64_t, std::unique_ptr<Connection>> conns_;
  std::map<std::string, int> per_client_;
  GateClock::time_point accept_paused_until_{};

  std::mutex mu_;  // guards the fields below
  std::condition_variable work_;
  bool stopping_ = false;
  std::deque<Connection*> jobs_;
  std::vector<std::pair<uint64_t, bool>> returned_;  // (id, keep alive)
  std::vector<std::thread> workers_;
};

}  // namespace foundry::console
