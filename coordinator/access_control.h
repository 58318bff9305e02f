// AccessControl: who may call what on the coordinator.
//
// Two bearer tokens, two roles. `admin` may run campaigns (submit, cancel)
// and speak the worker protocol; `reader` may read campaigns and the store.
// An admin may also read. When no token is configured, access control is off
// and every caller is an admin — allowed only on loopback (see
// ServerSecurity in server.h).
//
// Thread safety: immutable after construction.
#pragma once

#include <string>

#include <grpcpp/grpcpp.h>

#include "common/status.h"

namespace foundry::coordinator {

enum class Role { kReader = 1, kAdmin = 2 };

class AccessControl {
 public:
  // Access control off.
  AccessControl() = default;
  // REQUIRES: at least one token non-empty; tokens differ.
  AccessControl(std::string admin_token, std::string reader_token);

  bool enabled() const { return !admin_token_.empty() || !reader_token_.empty(); }

  // OK when the caller's "authorization: Bearer <token>" grants `needed`;
  // UNAUTHENTICATED without a known token; PERMISSION_DENIED when the token's
  // role is too weak. `context` may be null (in-process calls): allowed.
  grpc::Status Check(const grpc::ServerContextBase* context, Role needed) const;

 private:
  std::string admin_token_;
  std::string reader_token_;
};

}  // namespace foundry::coordinator
