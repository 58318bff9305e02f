// AccessControl: who may call what on the coordinator.
//
// Three bearer tokens, three roles, least privilege. `admin` may do
// everything: run and cancel campaigns, import, read, and speak the worker
// protocol. `reader` is a game server's role: it may read campaigns, workers
// and the store, and record plays (RecordPlay adds a player's result to a
// puzzle's play figures; it changes no puzzle, campaign or worker). There is
// no separate player role: whoever serves puzzles to players reports their
// plays.
// `worker` may only speak the worker protocol (lease, heartbeat, submit);
// it cannot read, start, cancel or import. When no token is configured,
// access control is off and every caller is an admin — allowed only on
// loopback (see ServerSecurity in server.h).
//
// Thread safety: immutable after construction.
#pragma once

#include <string>

#include <grpcpp/grpcpp.h>

#include "common/status.h"

namespace foundry::coordinator {

enum class Role { kReader = 1, kWorker = 2, kAdmin = 3 };

class AccessControl {
 public:
  // Access control off.
  AccessControl() = default;
  // REQUIRES: at least one token non-empty; non-empty tokens differ.
  AccessControl(std::string admin_token, std::string reader_token, std::string worker_token = "");

  bool enabled() const {
    return !admin_token_.empty() || !reader_token_.empty() || !worker_token_.empty();
  }

  // OK when the caller's "authorization: Bearer <token>" grants `needed`
  // (admin grants every role; reader and worker only their own);
  // UNAUTHENTICATED without a known token; PERMISSION_DENIED when the token's
  // role is too weak. `context` may be null (in-process calls): allowed.
  grpc::Status Check(const grpc::ServerContextBase* context, Role needed) const;

 private:
  std::string admin_token_;
  std::string reader_token_;
  std::string worker_token_;
};

}  // namespace foundry::coordinator
