// Where a server may listen without protection.
#pragma once

#include <string>

namespace foundry {

// True for 127.0.0.0/8, localhost and [::1] addresses ("host:port"): only
// processes on this machine can reach them.
inline bool IsLoopbackAddress(const std::string& address) {
  std::string host = address.substr(0, address.rfind(':'));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace foundry
