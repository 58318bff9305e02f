#include "console/coordinator_link.h"

#include <fmt/format.h>

#include "common/rpc_status.h"

namespace foundry::console {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kReader:
      return "reader";
    case Role::kNone:
      break;
  }
  return "none";
}

CoordinatorLink::CoordinatorLink(std::string address, const ClientSecurity& security)
    : address_(std::move(address)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  channel_ = security.Connect(address_, args);
  campaigns_ = foundry::v1::CampaignService::NewStub(channel_);
  store_ = foundry::v1::PuzzleStore::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> CoordinatorLink::Context(
    const std::string& token, std::chrono::milliseconds timeout) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

Result<Role> CoordinatorLink::ProbeRole(const std::string& token) const {
  foundry::v1::ListFamiliesResponse families;
  grpc::Status read = campaigns_->ListFamilies(Context(token).get(), {}, &families);
  if (read.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
    return Status::PermissionDenied("the coordinator does not know this token");
  }
  if (read.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
    return Status::PermissionDenied(
        "this token may not read (a worker token?): give a reader or admin token");
  }
  if (!read.ok()) return LinkError(read, address_);
  // CancelCampaign checks the admin role before it looks the id up, and no
  // campaign has an empty id: a reader hears PERMISSION_DENIED, an admin
  // NOT_FOUND or INVALID_ARGUMENT, and nothing changes.
  foundry::v1::CancelCampaignRequest none;
  foundry::v1::Campaign ignored;
  grpc::Status act = campaigns_->CancelCampaign(Context(token).get(), none, &ignored);
  if (act.error_code() == grpc::StatusCode::PERMISSION_DENIED) return Role::kReader;
  if (act.error_code() == grpc::StatusCode::UNAVAILABLE ||
      act.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return LinkError(act, address_);
  }
  return Role::kAdmin;
}

Result<bool> CoordinatorLink::OpenToAnyone() const {
  foundry::v1::ListFamiliesResponse families;
  grpc::Status read = campaigns_->ListFamilies(Context("").get(), {}, &families);
  if (read.ok()) return true;
  if (read.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
      read.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
    return false;
  }
  return LinkError(read, address_);
}

Status LinkError(const grpc::Status& s, const std::string& address) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return Status::Unavailable(
        fmt::format("cannot reach the coordinator at {} ({})", address, s.error_message()));
  }
  return FromGrpc(s);
}

}  // namespace foundry::console
