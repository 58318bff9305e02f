// Helpers for the commands that talk to a coordinator over gRPC.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/rpc_status.h"
#include "common/status.h"
#include "common/utf8_fields.h"

namespace foundry::cli {

// A channel to the coordinator at `address` (host:port); TLS when
// FOUNDRY_TLS_CA names the server's CA (FOUNDRY_TLS_CERT/KEY add a client
// certificate).
std::shared_ptr<grpc::Channel> Connect(const std::string& address);

// A context whose deadline is `timeout` from now, carrying the bearer token
// of FOUNDRY_TOKEN_FILE when set.
std::unique_ptr<grpc::ClientContext> CallContext(
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// "cannot reach the coordinator at ADDR" for UNAVAILABLE, else the message.
std::string DescribeRpcError(const grpc::Status& s, const std::string& address);

// A failed call as a Status: its code, and DescribeRpcError's words.
inline Status RpcFailure(const grpc::Status& s, const std::string& address) {
  return FromGrpc(grpc::Status(s.error_code(), DescribeRpcError(s, address)));
}

// One unary call, `method` of `stub` with `request` under
// CallContext(timeout): the response, or RpcFailure for `address`. A
// request with a text field that is not UTF-8 is refused here, by the
// field's name (gRPC would fail it with an empty message).
template <typename Stub, typename Request, typename Response>
Result<Response> Unary(Stub& stub,
                       grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&,
                                                    Response*),
                       const Request& request, const std::string& address,
                       std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  if (Status text = CheckUtf8Fields(request); !text.ok()) return text;
  Response response;
  auto ctx = CallContext(timeout);
  const grpc::Status s = (stub.*method)(ctx.get(), request, &response);
  if (!s.ok()) return RpcFailure(s, address);
  return response;
}

}  // namespace foundry::cli
