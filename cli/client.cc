#include "cli/client.h"

#include <cstdlib>

#include <fmt/format.h>

#include "common/client_security.h"

namespace foundry::cli {
namespace {

// TLS material and token from the environment, read once. A broken setting
// (an unreadable CA, a token file others may read) ends the command with
// exit 1 naming it: going on without TLS or the token would send the
// request somewhere the user did not mean to.
const ClientSecurity& Security() {
  static const ClientSecurity security = [] {
    auto s = ClientSecurity::FromEnvironment();
    if (s.ok()) return *s;
    fmt::print(stderr, "foundry: FOUNDRY_TLS_*/FOUNDRY_TOKEN_FILE: {}\n", s.status().message());
    std::exit(1);
  }();
  return security;
}

}  // namespace

std::shared_ptr<grpc::Channel> Connect(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  return Security().Connect(address, args);
}

std::unique_ptr<grpc::ClientContext> CallContext(std::chrono::milliseconds timeout) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  Security().Apply(*ctx);
  return ctx;
}

std::string DescribeRpcError(const grpc::Status& s, const std::string& address) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return fmt::format("cannot reach the coordinator at {} ({})", address, s.error_message());
  }
  return s.error_message();
}

}  // namespace foundry::cli
