// GateConnection: one client connection of the console's gate (http_gate.h)
// and the writes made on it. The gate's thread owns it while it reads a
// request; a worker thread owns it while it answers one (phase kBusy).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <httplib.h>

#include "console/request_framer.h"
#include "console/tls_session.h"

namespace foundry::console {

using GateClock = std::chrono::steady_clock;

struct GateConnection {
  enum class Phase {
    kHandshake,  // TLS handshake under way
    kHead,       // waiting for a request's head (or, empty, for the next request)
    kBody,       // the head is here, its body is coming
    kBusy,       // a worker answers the request
    kDraining,   // answered with an error; discarding what still comes, then closed
  };

  int fd = -1;
  uint64_t id = 0;
  std::string client;  // the peer's address, without the port
  int client_port = 0;
  std::string local_address;
  int local_port = 0;
  std::unique_ptr<TlsSession> tls;  // null on plain HTTP
  Phase phase = Phase::kHead;
  bool tls_wants_write = false;  // the handshake waits for the socket to take bytes
  // The bytes of the current request (and any pipelined after it).
  std::string buffer;
  RequestFramer framer;
  bool continue_sent = false;
  // kBusy: bytes of `buffer` the request takes.
  size_t request_length = 0;
  // When the current phase began, and when it must be over.
  GateClock::time_point since, deadline;
};

// Writes all of [data, data+size) to `c` (TLS or not), waiting for the
// socket with poll(2) as needed; false on an error, a closed peer, or when
// `deadline` passes first.
bool WriteAll(GateConnection& c, const char* data, size_t size, GateClock::time_point deadline);

// A short answer from the gate itself: `status` with the console's JSON
// error body `{"error": reason}` and "Connection: close".
std::string GateAnswer(int status, const std::string& reason);

// One complete request of `c` as the HTTP library reads it: reads come from
// the request's bytes alone (no socket read, so a slow client cannot hold a
// worker), writes go to the connection and must finish by `write_deadline`.
class GateStream final : public httplib::Stream {
 public:
  GateStream(GateConnection& c, GateClock::time_point write_deadline)
      : c_(c), request_(c.buffer.data(), c.request_length), write_deadline_(write_deadline) {}

  bool is_readable() const override { return true; }
  bool is_writable() const override { return !failed_; }
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return c_.fd; }

 private:
  GateConnection& c_;
  std::string_view request_;
  size_t read_ = 0;
  GateClock::time_point write_deadline_;
  bool failed_ = false;
};

}  // namespace foundry::console
