#include "worker/coordinator_address.h"

#include <charconv>
#include <fstream>

#include <fmt/format.h>

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
  const auto colon = line.rfind(':');
  unsigned port = 0;
  const char* port_end = line.data() + line.size();
  const bool port_ok =
      colon != std::string::npos && colon > 0 &&
      std::from_chars(line.data() + colon + 1, port_end, port).ptr == port_end &&
      colon + 1 < line.size() && port >= 1 && port <= 65535;
  if (!port_ok || line.find_first_of(" \t") != std::string::npos) {
    return Status::InvalidArgument(
        fmt::format("'{}' holds '{}', not a coordinator address host:port", path, line));
  }
  return line;
}

}  // namespace foundry::worker
