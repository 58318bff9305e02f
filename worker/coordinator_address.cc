#include "worker/coordinator_address.h"

#include <fstream>

#include <fmt/format.h>

#include "common/listen_address.h"

namespace foundry::worker {

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
  if (!IsDialHostPort(line)) {
    return Status::InvalidArgument(
        fmt::format("'{}' holds '{}', not a coordinator address host:port", path, line));
  }
  return line;
}

}  // namespace foundry::worker
