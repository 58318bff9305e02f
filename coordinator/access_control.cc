#include "coordinator/access_control.h"

#include <openssl/crypto.h>

namespace foundry::coordinator {
namespace {

// Compares in time independent of where the strings differ, so that response
// times do not leak a token byte by byte.
bool SameSecret(std::string_view a, const std::string& b) {
  return !b.empty() && a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

AccessControl::AccessControl(std::string admin_token, std::string reader_token,
                             std::string worker_token)
    : admin_token_(std::move(admin_token)),
      reader_token_(std::move(reader_token)),
      worker_token_(std::move(worker_token)) {}

grpc::Status AccessControl::Check(const grpc::ServerContextBase* context, Role needed) const {
  if (!enabled() || context == nullptr) return grpc::Status::OK;
  const auto& md = context->client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) {
    return {grpc::StatusCode::UNAUTHENTICATED,
            "this coordinator needs a bearer token (authorization: Bearer <token>)"};
  }
  std::string_view value(it->second.data(), it->second.size());
  constexpr std::string_view kBearer = "Bearer ";
  if (value.substr(0, kBearer.size()) != kBearer) {
    return {grpc::StatusCode::UNAUTHENTICATED, "the authorization header must be 'Bearer <token>'"};
  }
  value.remove_prefix(kBearer.size());
  Role role;
  if (SameSecret(value, admin_token_)) {
    role = Role::kAdmin;
  } else if (SameSecret(value, reader_token_)) {
    role = Role::kReader;
  } else if (SameSecret(value, worker_token_)) {
    role = Role::kWorker;
  } else {
    return {grpc::StatusCode::UNAUTHENTICATED, "unknown bearer token"};
  }
  if (role == Role::kAdmin || role == needed) return grpc::Status::OK;
  if (role == Role::kReader) {
    return {grpc::StatusCode::PERMISSION_DENIED,
            "a reader token may read campaigns and puzzles, record plays and serve players "
            "(GetPlayer, NextPuzzle, PuzzleOfTheDay), but not start or cancel campaigns, "
            "import, refit ratings, export plays or run jobs; use an admin token"};
  }
  return {grpc::StatusCode::PERMISSION_DENIED,
          "a worker token may only lease, heartbeat and submit jobs; reading the store and "
          "starting, cancelling or importing campaigns need a reader or admin token"};
}

}  // namespace foundry::coordinator
