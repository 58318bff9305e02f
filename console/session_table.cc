#include "console/session_table.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

namespace foundry::console {

SessionTable::SessionTable(std::chrono::seconds idle, size_t max_sessions)
    : idle_(idle), max_sessions_(std::max<size_t>(1, max_sessions)) {}

std::string SessionTable::RandomHex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (RAND_bytes(buf.data(), static_cast<int>(buf.size())) != 1) {
    // Without randomness a session id could be guessed: refuse to serve.
    throw std::runtime_error("OpenSSL's random generator failed");
  }
  std::string out;
  out.reserve(bytes * 2);
  for (unsigned char b : buf) out += fmt::format("{:02x}", b);
  return out;
}

bool SessionTable::SameSecret(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Session SessionTable::Create(Role role, std::string token, bool logged_in) {
  Session s{RandomHex(32), RandomHex(32), role, std::move(token), logged_in};
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  EvictLocked(now);
  sessions_[s.id] = Entry{s, now};
  return s;
}

std::optional<Session> SessionTable::Find(const std::string& id) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  if (now - it->second.last_used > idle_) {
    sessions_.erase(it);
    return std::nullopt;
  }
  it->second.last_used = now;
  return it->second.session;
}

void SessionTable::SetRole(const std::string& id, Role role) {
  std::lock_guard lock(mu_);
  if (auto it = sessions_.find(id); it != sessions_.end()) it->second.session.role = role;
}

void SessionTable::Remove(const std::string& id) {
  std::lock_guard lock(mu_);
  sessions_.erase(id);
}

void SessionTable::EvictLocked(Clock::time_point now) {
  std::erase_if(sessions_, [&](const auto& e) { return now - e.second.last_used > idle_; });
  while (sessions_.size() >= max_sessions_) {
    auto lru = std::min_element(sessions_.begin(), sessions_.end(), [](const auto& a, const auto& b) {
      return a.second.last_used < b.second.last_used;
    });
    sessions_.erase(lru);
  }
}

}  // namespace foundry::console
