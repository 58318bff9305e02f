#include "console/gate_connection.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace foundry::console {
namespace {

// Waits until `fd` is ready for `events` or `deadline` passes.
bool WaitFor(int fd, short events, GateClock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - GateClock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n > 0) return (p.revents & (POLLERR | POLLNVAL)) == 0;
    if (n < 0 && errno != EINTR) return false;
  }
}

// The reason phrases of the answers the gate gives itself.
const char* Phrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

}  // namespace

bool WriteAll(GateConnection& c, const char* data, size_t size, GateClock::time_point deadline) {
  while (size > 0) {
    if (c.tls) {
      size_t written = 0;
      switch (c.tls->Write(data, size, &written)) {
        case TlsSession::Io::kDone:
          data += written;
          size -= written;
          continue;
        case TlsSession::Io::kWantWrite:
          if (!WaitFor(c.fd, POLLOUT, deadline)) return false;
          continue;
        case TlsSession::Io::kWantRead:
          if (!WaitFor(c.fd, POLLIN, deadline)) return false;
          continue;
        default:
          return false;
      }
    }
    const ssize_t n = ::send(c.fd, data, size, MSG_NOSIGNAL);
    if (n > 0) {
      data += n;
      size -= static_cast<size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!WaitFor(c.fd, POLLOUT, deadline)) return false;
    } else if (!(n < 0 && errno == EINTR)) {
      return false;
    }
  }
  return true;
}

std::string GateAnswer(int status, const std::string& reason) {
  const std::string body = nlohmann::json{{"error", reason}}.dump() + "\n";
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n"
      "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
      "Connection: close\r\n\r\n{}",
      status, Phrase(status), body.size(), body);
}

ssize_t GateStream::read(char* ptr, size_t size) {
  const size_t n = std::min(size, request_.size() - read_);
  std::memcpy(ptr, request_.data() + read_, n);
  read_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t GateStream::write(const char* ptr, size_t size) {
  if (failed_ || !WriteAll(c_, ptr, size, write_deadline_)) {
    failed_ = true;
    return -1;
  }
  return static_cast<ssize_t>(size);
}

void GateStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  ip = c_.client;
  port = c_.client_port;
}

void GateStream::get_local_ip_and_port(std::string& ip, int& port) const {
  ip = c_.local_address;
  port = c_.local_port;
}

}  // namespace foundry::console
