// SessionTable: who is on the other end of a browser. A session is a random
// id in an HttpOnly cookie; it holds the visitor's role, the coordinator
// token the console uses on their behalf, and the CSRF token every POST must
// echo in a header (a forged cross-site form cannot read it).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "console/coordinator_link.h"
#include "console/player_desk.h"

namespace foundry::console {

struct Session {
  std::string id;    // the cookie's value, 256 random bits
  std::string csrf;  // 256 random bits, sent back in X-CSRF-Token
  Role role = Role::kNone;
  std::string token;  // the coordinator token calls carry for this visitor
  bool logged_in = false;
  // The session's player (name, rounds, history); shared by the copies Find
  // returns, so it lives as long as the session.
  std::shared_ptr<PlayerDesk> desk;
};

class SessionTable {
 public:
  // Sessions unused for `idle` expire. Logged-in sessions and anonymous ones
  // are bounded apart, at most `max_sessions` each, the least recently used
  // of its own kind going first: a flood of anonymous visitors cannot
  // exhaust memory, nor log anybody out. Every operation is O(log n) plus
  // the expired sessions it drops.
  explicit SessionTable(std::chrono::seconds idle = std::chrono::hours(12),
                        size_t max_sessions = 10000);

  // A new session with fresh random id and CSRF token.
  Session Create(Role role, std::string token, bool logged_in);
  // The live session with this id (and marks it used), or nothing.
  std::optional<Session> Find(const std::string& id);
  // Updates the role of a session (the console's own role became known).
  void SetRole(const std::string& id, Role role);
  void Remove(const std::string& id);

  // Equality in time that does not depend on where the strings differ.
  static bool SameSecret(const std::string& a, const std::string& b);

 private:
  using Clock = std::chrono::steady_clock;
  // Session ids of one kind, most recently used first.
  using UseOrder = std::list<std::string>;
  struct Entry {
    Session session;
    Clock::time_point last_used;
    UseOrder::iterator in_order;
  };
  UseOrder& OrderOf(const Session& s) { return s.logged_in ? logged_in_ : anonymous_; }
  // Drops `order`'s expired sessions, then its least recently used ones
  // until one more fits.
  void MakeRoomLocked(UseOrder& order, Clock::time_point now);
  void EraseLocked(std::map<std::string, Entry>::iterator it);

  const std::chrono::seconds idle_;
  const size_t max_sessions_;
  std::mutex mu_;
  std::map<std::string, Entry> sessions_;
  UseOrder logged_in_;
  UseOrder anonymous_;
};

}  // namespace foundry::console
