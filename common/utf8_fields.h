// Finding a text field that Protocol Buffers would refuse to send.
#pragma once

#include <string>

#include <google/protobuf/message.h>

#include "common/status.h"

namespace foundry {

// The path of the first string field of `message` (nested messages, repeated
// fields and maps included), e.g. "spec.params.value", whose value is not
// well-formed UTF-8; "" when every one is.
std::string FirstNonUtf8Field(const google::protobuf::Message& message);

// OK, or INVALID_ARGUMENT naming that field: what a client says instead of
// the empty error gRPC gives for a request it could not serialize.
Status CheckUtf8Fields(const google::protobuf::Message& message);

}  // namespace foundry
