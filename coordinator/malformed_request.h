// A server interceptor that names a request gRPC could not read. When a
// request's bytes do not parse as the method's message (not protobuf at all,
// or a text field that is not UTF-8), gRPC answers INTERNAL or, on the
// callback services, UNIMPLEMENTED, both with an empty message: a client
// would take the first for a server fault and the second for a missing
// method. This turns them into INVALID_ARGUMENT saying what was wrong.
//
// Only unary and server-streaming calls read one request before their
// handler runs; a client stream's unreadable message ends its reads, which
// its handler answers itself.
#pragma once

#include <memory>

#include <grpcpp/support/server_interceptor.h>

namespace foundry::coordinator {

// A factory for grpc::ServerBuilder::experimental().SetInterceptorCreators();
// put it before interceptors that read the final status (RpcMetrics).
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MalformedRequestInterceptorFactory();

}  // namespace foundry::coordinator
