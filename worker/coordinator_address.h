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

}  // namespace foundry::worker
