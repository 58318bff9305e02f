#include "console/http_gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include <fmt/format.h>

namespace foundry::console {
namespace {

constexpr size_t kReadChunk = 16 << 10;
// How long a refused connection is still read (and what comes discarded) so
// that its client sees the answer instead of a reset.
constexpr auto kLinger = std::chrono::seconds(2);
// The most a gate answer may wait for the socket (it fits in any socket
// buffer, so this is only for a peer that is gone).
constexpr auto kAnswerWait = std::chrono::milliseconds(100);

// The address of `sa` as text, and its port.
std::string AddressText(const sockaddr_storage& sa, int* port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (sa.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&sa);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    *port = ntohs(in->sin_port);
  } else if (sa.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&sa);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    *port = ntohs(in6->sin6_port);
  }
  return text;
}

}  // namespace

HttpGate::HttpGate(TlsContext tls, GateLimits limits, Handler handler)
    : tls_(std::move(tls)), limits_(limits), handler_(std::move(handler)) {}

Result<std::unique_ptr<HttpGate>> HttpGate::Bind(const std::string& host, int port, TlsContext tls,
                                                 GateLimits limits, Handler handler) {
  std::signal(SIGPIPE, SIG_IGN);  // a peer gone mid-write is an error, not an end
  std::unique_ptr<HttpGate> gate(new HttpGate(std::move(tls), limits, std::move(handler)));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    return Status::Unavailable(fmt::format("cannot resolve '{}'", host));
  }
  for (addrinfo* a = found; a != nullptr && gate->listen_fd_ < 0; a = a->ai_next) {
    const int fd =
        ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 1024) == 0) {
      gate->listen_fd_ = fd;
    } else {
      ::close(fd);
    }
  }
  ::freeaddrinfo(found);
  if (gate->listen_fd_ < 0)
    return Status::Unavailable(fmt::format("cannot listen on {}:{} (in use?)", host, port));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(gate->listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
  AddressText(bound, &gate->port_);
  gate->wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (gate->wake_fd_ < 0) return Status::Internal("eventfd failed");
  return gate;
}

HttpGate::~HttpGate() {
  Stop();
  for (auto& [id, c] : conns_) ::close(c->fd);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void HttpGate::Wake() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void HttpGate::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  if (wake_fd_ >= 0) Wake();
}

void HttpGate::Run() {
  for (int i = 0; i < limits_.workers; ++i) workers_.emplace_back([this] { Work(); });
  std::vector<pollfd> fds;
  std::vector<uint64_t> ids;
  std::vector<uint64_t> closing;
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) break;
    }
    auto now = GateClock::now();
    auto wake_at = now + std::chrono::seconds(1);
    fds.clear();
    ids.clear();
    fds.push_back({wake_fd_, POLLIN, 0});
    fds.push_back({now >= accept_paused_until_ ? listen_fd_ : -1, POLLIN, 0});
    for (auto& [id, c] : conns_) {
      if (c->phase == Connection::Phase::kBusy) continue;
      const bool out = c->phase == Connection::Phase::kHandshake && c->tls_wants_write;
      fds.push_back({c->fd, static_cast<short>(out ? POLLOUT : POLLIN), 0});
      ids.push_back(id);
      wake_at = std::min(wake_at, c->deadline);
    }
    if (now < accept_paused_until_) wake_at = std::min(wake_at, accept_paused_until_);
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(wake_at - now).count();
    if (::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait, 0) + 1)) < 0 &&
        errno != EINTR) {
      break;
    }
    if (fds[0].revents != 0) {
      uint64_t drained;
      [[maybe_unused]] ssize_t n = ::read(wake_fd_, &drained, sizeof drained);
    }
    closing.clear();
    for (size_t i = 0; i < ids.size(); ++i) {
      if (fds[i + 2].revents == 0) continue;
      if (!OnReady(*conns_.at(ids[i]))) closing.push_back(ids[i]);
    }
    for (uint64_t id : closing) Close(id);
    TakeReturned();
    closing.clear();
    now = GateClock::now();
    for (auto& [id, c] : conns_) {
      if (c->phase != Connection::Phase::kBusy && now >= c->deadline && !OnTimeout(*c)) {
        closing.push_back(id);
      }
    }
    for (uint64_t id : closing) Close(id);
    if (fds[1].revents != 0) Accept();
  }
  work_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
  TakeReturned();
}

void HttpGate::Accept() {
  for (;;) {
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &len,
                             SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      // Out of descriptors: stop accepting for a moment instead of spinning.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        accept_paused_until_ = GateClock::now() + std::chrono::milliseconds(100);
      }
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;
    }
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    c->client = AddressText(peer, &c->client_port);
    if (!Admit(c->client)) {
      if (!tls_) {
        const std::string answer = GateAnswer(
            503, "the console is answering as many requests as it may at once: retry shortly");
        [[maybe_unused]] ssize_t n = ::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
      }
      ::close(fd);
      continue;
    }
    sockaddr_storage local{};
    len = sizeof local;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len);
    c->local_address = AddressText(local, &c->local_port);
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    c->id = next_id_++;
    c->framer = RequestFramer(limits_.frame);
    c->since = GateClock::now();
    c->deadline = c->since + limits_.header_timeout;
    if (tls_) {
      c->tls = TlsSession::Start(tls_.get(), fd);
      if (!c->tls) {
        ::close(fd);
        continue;
      }
      c->phase = Connection::Phase::kHandshake;
    }
    ++per_client_[c->client];
    conns_.emplace(c->id, std::move(c));
  }
}

bool HttpGate::Admit(const std::string& client) {
  auto it = per_client_.find(client);
  if (it != per_client_.end() && it->second >= limits_.max_connections_per_client &&
      !EvictOldest(&client)) {
    return false;
  }
  return static_cast<int>(conns_.size()) < limits_.max_connections || EvictOldest(nullptr);
}

bool HttpGate::EvictOldest(const std::string* client) {
  Connection* oldest = nullptr;
  for (auto& [id, c] : conns_) {
    if (c->phase == Connection::Phase::kBusy || (client != nullptr && c->client != *client))
      continue;
    if (oldest == nullptr || c->since < oldest->since) oldest = c.get();
  }
  if (oldest == nullptr) return false;
  Close(oldest->id);
  return true;
}

void HttpGate::Close(uint64_t id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Connection& c = *it->second;
  if (c.tls && c.phase != Connection::Phase::kDraining) c.tls->Shutdown();
  ::close(c.fd);
  if (auto pc = per_client_.find(c.client); pc != per_client_.end() && --pc->second <= 0) {
    per_client_.erase(pc);
  }
  conns_.erase(it);
}

bool HttpGate::OnReady(Connection& c) {
  switch (c.phase) {
    case Connection::Phase::kHandshake:
      switch (c.tls->Handshake()) {
        case TlsSession::Io::kDone:
          c.phase = Connection::Phase::kHead;
          return ReadRequest(c);  // the first request may have come with it
        case TlsSession::Io::kWantRead:
          c.tls_wants_write = false;
          return true;
        case TlsSession::Io::kWantWrite:
          c.tls_wants_write = true;
          return true;
        default:
          return false;
      }
    case Connection::Phase::kHead:
    case Connection::Phase::kBody:
      return ReadRequest(c);
    case Connection::Phase::kDraining: {
      std::string discard;
      for (;;) {
        discard.clear();
        if (c.tls) {
          const auto io = c.tls->Read(discard, kReadChunk);
          if (io == TlsSession::Io::kWantRead || io == TlsSession::Io::kWantWrite) return true;
          if (io != TlsSession::Io::kDone) return false;
          continue;
        }
        char buf[kReadChunk];
        const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n > 0) continue;
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
      }
    }
    case Connection::Phase::kBusy:
      return true;
  }
  return true;
}

bool HttpGate::ReadRequest(Connection& c) {
  // At most one request's worth per turn: the framer refuses anything longer.
  const size_t cap =
      limits_.frame.max_head + limits_.frame.max_body + limits_.frame.max_chunk_overhead;
  for (;;) {
    const size_t before = c.buffer.size();
    if (c.tls) {
      const auto io = c.tls->Read(c.buffer, kReadChunk);
      if (io == TlsSession::Io::kWantRead || io == TlsSession::Io::kWantWrite) return true;
      if (io != TlsSession::Io::kDone) return false;
    } else {
      c.buffer.resize(before + kReadChunk);
      const ssize_t n = ::recv(c.fd, c.buffer.data() + before, kReadChunk, 0);
      c.buffer.resize(before + (n > 0 ? static_cast<size_t>(n) : 0));
      if (n == 0) return false;
      if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    }
    if (!FrameRequest(c)) return false;
    if (c.phase != Connection::Phase::kHead && c.phase != Connection::Phase::kBody) return true;
    if (c.buffer.size() >= cap) return Refuse(c, 413, "the request is too large");
  }
}

bool HttpGate::FrameRequest(Connection& c) {
  const Frame f = c.framer.Scan(c.buffer);
  switch (f.state) {
    case Frame::State::kRefused:
      return Refuse(c, f.status, f.reason);
    case Frame::State::kComplete:
      c.request_length = f.length;
      c.phase = Connection::Phase::kBusy;
      {
        std::lock_guard lock(mu_);
        jobs_.push_back(&c);
      }
      work_.notify_one();
      return true;
    case Frame::State::kIncomplete:
      break;
  }
  if (f.head_complete && c.phase == Connection::Phase::kHead) {
    c.phase = Connection::Phase::kBody;
    c.since = GateClock::now();
    c.deadline = c.since + limits_.body_timeout;
  }
  if (f.expects_continue && !c.continue_sent) {
    c.continue_sent = true;
    static constexpr char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
    if (!WriteAll(c, kContinue, sizeof kContinue - 1, GateClock::now() + kAnswerWait)) return false;
  }
  return true;
}

bool HttpGate::Refuse(Connection& c, int status, const std::string& reason) {
  const std::string answer = GateAnswer(status, reason);
  if (!WriteAll(c, answer.data(), answer.size(), GateClock::now() + kAnswerWait)) return false;
  if (c.tls) c.tls->Shutdown();
  ::shutdown(c.fd, SHUT_WR);
  std::string().swap(c.buffer);
  c.phase = Connection::Phase::kDraining;
  c.deadline = GateClock::now() + kLinger;
  return true;
}

bool HttpGate::OnTimeout(Connection& c) {
  switch (c.phase) {
    case Connection::Phase::kHead:
      if (c.buffer.empty()) return false;  // an idle kept-alive connection
      return Refuse(c, 408,
                    fmt::format("the request line and headers did not arrive within {} ms "
                                "(--header-timeout-ms)",
                                limits_.header_timeout.count()));
    case Connection::Phase::kBody:
      return Refuse(c, 408,
                    fmt::format("the request body did not arrive within {} ms "
                                "(--body-timeout-ms)",
                                limits_.body_timeout.count()));
    default:
      return false;
  }
}

void HttpGate::Work() {
  for (;;) {
    Connection* c = nullptr;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      c = jobs_.front();
      jobs_.pop_front();
    }
    GateStream stream(*c, GateClock::now() + limits_.body_timeout);
    const bool keep = handler_(stream) && stream.is_writable();
    {
      std::lock_guard lock(mu_);
      returned_.emplace_back(c->id, keep);
    }
    Wake();
  }
}

void HttpGate::TakeReturned() {
  std::vector<std::pair<uint64_t, bool>> back;
  {
    std::lock_guard lock(mu_);
    back.swap(returned_);
  }
  for (const auto& [id, keep] : back) {
    auto it = conns_.find(id);
    if (it == conns_.end()) continue;
    Connection& c = *it->second;
    if (!keep) {
      Close(id);
      continue;
    }
    c.buffer.erase(0, c.request_length);
    c.request_length = 0;
    c.framer.Reset();
    c.continue_sent = false;
    c.phase = Connection::Phase::kHead;
    c.since = GateClock::now();
    c.deadline = c.since + limits_.header_timeout;
    // A request sent right behind the last one is framed now, and read on:
    // TLS may hold decrypted bytes that poll(2) cannot see.
    bool ok = c.buffer.empty() || FrameRequest(c);
    if (ok && (c.phase == Connection::Phase::kHead || c.phase == Connection::Phase::kBody)) {
      ok = ReadRequest(c);
    }
    if (!ok) Close(id);
  }
}

}  // namespace foundry::console
