// The coordinator's address from a rendezvous file: how a coordinator
// started as one batch job tells the workers of another where it listens
// (`foundry-coordinator --address-file`, `foundry-worker --coordinator-file`).
#pragma once

#include <string>

#include "common/status.h"

namespace foundry::worker {

// The file's first line, trimmed: "host:port". NotFound while the file is
// missing or empty (the coordinator has not written it yet, or has exited);
// InvalidArgument naming the file when the line is not host:port.
Result<std::string> ReadCoordinatorAddress(const std::string& path);

// INVALID_ARGUMENT naming --coordinator unless `address` is host:port or a
// gRPC target with a scheme ("dns:", "unix:", "ipv4:", "ipv6:"). A bare
// name ("node17") would be dialled at gRPC's default port, 443, and retried
// forever; a missing port is a typo, said once at start-up.
Status CheckCoordinatorAddress(const std::string& address);

}  // namespace foundry::worker
