#include "worker/coordinator_address.h"

#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "common/listen_address.h"

namespace foundry::worker {

namespace {

// HOST:PORT with a port of 1..65535 and no blanks.
bool IsHostPort(const std::string& address) {
  const auto split = SplitHostPort(address);
  return split && split->port > 0 && address.find_first_of(" \t") == std::string::npos;
}

}  // namespace

Result<std::string> ReadCoordinatorAddress(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    return Status::NotFound(fmt::format("no coordinator address in '{}' yet", path));
  }
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) {
    return Status::NotFound(fmt::format("no coordinator address in '{}' yet", path));
  }
  line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
  if (!IsHostPort(line)) {
    return Status::InvalidArgument(
        fmt::format("'{}' holds '{}', not a coordinator address host:port", path, line));
  }
  return line;
}

Status CheckCoordinatorAddress(const std::string& address) {
  for (std::string_view scheme : {"dns:", "unix:", "ipv4:", "ipv6:"}) {
    if (address.starts_with(scheme)) return Status::Ok();
  }
  if (IsHostPort(address)) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("--coordinator '{}' is not HOST:PORT (e.g. 127.0.0.1:7420)", address));
}

}  // namespace foundry::worker
