#include "coordinator/malformed_request.h"

#include <fmt/format.h>

namespace foundry::coordinator {
namespace {

using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::ServerRpcInfo;

class MalformedRequestInterceptor final : public grpc::experimental::Interceptor {
 public:
  // `method` is gRPC's registered name, alive as long as the server.
  explicit MalformedRequestInterceptor(const char* method) : method_(method ? method : "") {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    // gRPC hands the interceptors no message when the request's bytes did
    // not parse.
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() == nullptr) {
      unreadable_ = true;
    }
    if (unreadable_ &&
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status sent = methods->GetSendStatus();
      if (sent.error_message().empty() && (sent.error_code() == grpc::StatusCode::INTERNAL ||
                                           sent.error_code() == grpc::StatusCode::UNIMPLEMENTED)) {
        methods->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            fmt::format("the request is not a valid message for {}: its bytes do not parse as "
                        "protobuf, or a text field is not UTF-8",
                        method_)));
      }
    }
    methods->Proceed();
  }

 private:
  const char* method_;  // not copied: this runs on every call
  bool unreadable_ = false;
};

class Factory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(ServerRpcInfo* info) override {
    const auto type = info->type();
    if (type != ServerRpcInfo::Type::UNARY && type != ServerRpcInfo::Type::SERVER_STREAMING) {
      return nullptr;
    }
    return new MalformedRequestInterceptor(info->method());
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MalformedRequestInterceptorFactory() {
  return std::make_unique<Factory>();
}

}  // namespace foundry::coordinator
