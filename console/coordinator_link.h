// CoordinatorLink: the console's only way to the data — a gRPC client of the
// coordinator, like the CLI. Each call carries the bearer token of whoever
// the console acts for (a logged-in person, or the console's own token), so
// the coordinator keeps enforcing roles.
//
// Thread safety: safe to share; every method may be called concurrently.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/client_security.h"
#include "common/status.h"
#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"

namespace foundry::console {

// What a token may do on the coordinator.
enum class Role { kNone = 0, kReader = 1, kAdmin = 2 };

// "none", "reader" or "admin".
const char* RoleName(Role role);

class CoordinatorLink {
 public:
  // `security` gives TLS (its token is not used: tokens go per call).
  CoordinatorLink(std::string address, const ClientSecurity& security);

  const std::string& address() const { return address_; }

  // A context with a deadline of `timeout` carrying `token` (none if empty).
  std::unique_ptr<grpc::ClientContext> Context(
      const std::string& token, std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

  foundry::v1::CampaignService::Stub& campaigns() const { return *campaigns_; }
  foundry::v1::PuzzleStore::Stub& store() const { return *store_; }

  // What `token` may do: kReader or kAdmin; PermissionDenied for a token the
  // coordinator does not know or one that cannot read (a worker token),
  // Unavailable when the coordinator cannot be reached.
  // Harmless: the admin probe cancels a campaign id that cannot exist.
  Result<Role> ProbeRole(const std::string& token) const;

  // True when the coordinator answers reads without any token (access
  // control off): a console login would then protect nothing.
  Result<bool> OpenToAnyone() const;

 private:
  std::string address_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<foundry::v1::CampaignService::Stub> campaigns_;
  std::unique_ptr<foundry::v1::PuzzleStore::Stub> store_;
};

// The status a failed call becomes (same code, same message), with "cannot
// reach the coordinator at ADDR" for an unreachable one.
Status LinkError(const grpc::Status& s, const std::string& address);

}  // namespace foundry::console
