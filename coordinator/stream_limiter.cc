#include "coordinator/stream_limiter.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace foundry::coordinator {

StreamLimiter::StreamLimiter(StreamLimits limits) : limits_(limits) {
  watchdog_ = std::thread([this] { Watch(); });
}

StreamLimiter::~StreamLimiter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  watchdog_.join();
}

std::string StreamLimiter::ClientKey(const grpc::ServerContextBase& context) {
  const auto& md = context.client_metadata();
  if (auto it = md.find("authorization"); it != md.end()) {
    // A hash: the key may end up in a message or a log, the token never.
    const size_t h =
        std::hash<std::string_view>()(std::string_view(it->second.data(), it->second.size()));
    return fmt::format("token:{:016x}", h);
  }
  // "ipv4:127.0.0.1:5555", "ipv6:[::1]:5555": the address without the port.
  std::string peer = context.peer();
  if (const auto colon = peer.rfind(':'); colon != std::string::npos && colon > peer.find(':')) {
    peer.resize(colon);
  }
  return "peer:" + peer;
}

grpc::Status StreamLimiter::Admit(grpc::ServerContextBase* context,
                                  std::unique_ptr<Ticket>* ticket) {
  const std::string client = ClientKey(*context);
  std::lock_guard lock(mu_);
  if (static_cast<int>(open_.size()) >= limits_.max_streams) {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED,
            fmt::format("the coordinator serves at most {} {} at once ({}) and all are open: "
                        "retry later",
                        limits_.max_streams, limits_.noun, limits_.max_flag)};
  }
  int& mine = per_client_[client];
  if (mine >= limits_.max_streams_per_client) {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED,
            fmt::format("this client (its token, or its address without one) already has {} "
                        "{} open, the most one client may ({}): read or close them first",
                        mine, limits_.noun, limits_.per_client_flag)};
  }
  ++mine;
  const uint64_t id = next_id_++;
  open_.emplace(id, Entry{context, client, std::chrono::steady_clock::now()});
  ticket->reset(new Ticket(*this, id));
  return grpc::Status::OK;
}

int StreamLimiter::open() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(open_.size());
}

void StreamLimiter::Release(uint64_t id) {
  std::lock_guard lock(mu_);
  auto it = open_.find(id);
  if (it == open_.end()) return;
  if (auto c = per_client_.find(it->second.client); c != per_client_.end() && --c->second <= 0) {
    per_client_.erase(c);
  }
  open_.erase(it);
}

void StreamLimiter::Touch(uint64_t id) {
  std::lock_guard lock(mu_);
  if (auto it = open_.find(id); it != open_.end())
    it->second.last_progress = std::chrono::steady_clock::now();
}

bool StreamLimiter::IdleEnded(uint64_t id) const {
  std::lock_guard lock(mu_);
  auto it = open_.find(id);
  return it != open_.end() && it->second.idle_ended;
}

void StreamLimiter::Watch() {
  // Checks a few times per idle period: a stream ends between idle_timeout
  // and 1.25 x idle_timeout (at most 1 s more) after its last message.
  const auto period = std::clamp<std::chrono::milliseconds>(
      limits_.idle_timeout / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
  std::unique_lock lock(mu_);
  while (!stopping_) {
    wake_.wait_for(lock, period);
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, e] : open_) {
      if (!e.idle_ended && now - e.last_progress >= limits_.idle_timeout) {
        e.idle_ended = true;
        // The context is alive: its ticket, which removes it under this
        // lock, is released before the call ends.
        e.context->TryCancel();
      }
    }
  }
}

StreamLimiter::Ticket::~Ticket() { owner_.Release(id_); }
void StreamLimiter::Ticket::Progress() { owner_.Touch(id_); }
bool StreamLimiter::Ticket::idle_ended() const { return owner_.IdleEnded(id_); }

grpc::Status StreamEndStatus(const StreamLimiter* streams, const StreamLimiter::Ticket* ticket,
                             bool client_gone) {
  if (ticket != nullptr && streams != nullptr && ticket->idle_ended()) {
    const StreamLimits& limits = streams->limits();
    return grpc::Status(grpc::StatusCode::CANCELLED,
                        fmt::format("{} for {} ms ({})", limits.idle_end,
                                    limits.idle_timeout.count(), limits.idle_flag));
  }
  if (client_gone) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
  return grpc::Status::OK;
}

}  // namespace foundry::coordinator
