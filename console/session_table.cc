#include "console/session_table.h"

#include <algorithm>

#include <openssl/crypto.h>

#include "common/secure_random.h"

namespace foundry::console {

SessionTable::SessionTable(std::chrono::seconds idle, size_t max_sessions)
    : idle_(idle), max_sessions_(std::max<size_t>(1, max_sessions)) {}

bool SessionTable::SameSecret(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Session SessionTable::Create(Role role, std::string token, bool logged_in) {
  Session s{SecureRandomHex(32), SecureRandomHex(32), role,
            std::move(token),    logged_in,           std::make_shared<PlayerDesk>()};
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  UseOrder& order = OrderOf(s);
  MakeRoomLocked(order, now);
  order.push_front(s.id);
  sessions_[s.id] = Entry{s, now, order.begin()};
  return s;
}

std::optional<Session> SessionTable::Find(const std::string& id) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  if (now - it->second.last_used > idle_) {
    EraseLocked(it);
    return std::nullopt;
  }
  it->second.last_used = now;
  UseOrder& order = OrderOf(it->second.session);
  order.splice(order.begin(), order, it->second.in_order);  // iterators stay valid
  return it->second.session;
}

void SessionTable::SetRole(const std::string& id, Role role) {
  std::lock_guard lock(mu_);
  if (auto it = sessions_.find(id); it != sessions_.end()) it->second.session.role = role;
}

void SessionTable::Remove(const std::string& id) {
  std::lock_guard lock(mu_);
  if (auto it = sessions_.find(id); it != sessions_.end()) EraseLocked(it);
}

void SessionTable::EraseLocked(std::map<std::string, Entry>::iterator it) {
  OrderOf(it->second.session).erase(it->second.in_order);
  sessions_.erase(it);
}

void SessionTable::MakeRoomLocked(UseOrder& order, Clock::time_point now) {
  // The least recently used are at the back: expired ones first, then as
  // many as the bound needs.
  while (!order.empty()) {
    auto oldest = sessions_.find(order.back());
    if (now - oldest->second.last_used <= idle_ && order.size() < max_sessions_) break;
    EraseLocked(oldest);
  }
}

}  // namespace foundry::console
