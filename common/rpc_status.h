// Converting between foundry::Status and grpc::Status. Status codes carry the
// same numbers as gRPC's, so the conversion keeps the kind and the message.
#pragma once

#include <grpcpp/support/status.h>

#include "common/quote.h"
#include "common/status.h"
#include "common/utf8.h"

namespace foundry {

// Longest error message sent to a client: gRPC carries it in a header, and
// one past the peer's metadata limit turns the error into RESOURCE_EXHAUSTED.
constexpr size_t kMaxErrorMessage = 2048;

// The message is made well-formed UTF-8 (a byte that is not becomes U+FFFD):
// it may quote bytes of a caller's text, and a client decodes it as UTF-8.
inline grpc::Status ToGrpc(const Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(static_cast<int>(s.code())),
                      QuoteInput(ValidUtf8(s.message()), kMaxErrorMessage));
}

// A handler's answer: `result`'s value moved into `*response`, or its error.
template <typename T>
grpc::Status Reply(Result<T>&& result, T* response) {
  if (!result.ok()) return ToGrpc(result.status());
  *response = std::move(*result);
  return grpc::Status::OK;
}

inline Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return Status::Ok();
  const std::string& m = s.error_message();
  switch (s.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      return Status::InvalidArgument(m);
    case grpc::StatusCode::NOT_FOUND:
      return Status::NotFound(m);
    case grpc::StatusCode::ALREADY_EXISTS:
      return Status::AlreadyExists(m);
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED:
      return Status::PermissionDenied(m);
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return Status::ResourceExhausted(m);
    case grpc::StatusCode::FAILED_PRECONDITION:
      return Status::FailedPrecondition(m);
    case grpc::StatusCode::ABORTED:
      return Status::Aborted(m);
    case grpc::StatusCode::OUT_OF_RANGE:
      return Status::OutOfRange(m);
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::CANCELLED:
      return Status::Unavailable(m.empty() ? "unavailable" : m);
    case grpc::StatusCode::DATA_LOSS:
      return Status::DataLoss(m);
    default:
      return Status::Internal(m);
  }
}

}  // namespace foundry
