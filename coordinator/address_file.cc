#include "coordinator/address_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "common/listen_address.h"

namespace foundry::coordinator {

std::string AdvertisedHost(const std::string& listen, const std::string& advertise) {
  if (!advertise.empty()) return advertise;
  const auto split = SplitHostPort(listen);
  const std::string host = split ? split->host : listen;
  if (!host.empty() && host != "0.0.0.0" && host != "::" && host != "*") {
    return host.find(':') == std::string::npos ? host : "[" + host + "]";  // IPv6 in brackets
  }
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

Status WriteAddressFile(const std::string& path, const std::string& address) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << address << '\n';
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::Internal(
          fmt::format("cannot write the address file '{}': {}", tmp, std::strerror(errno)));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return Status::Internal(
        fmt::format("cannot write the address file '{}': {}", path, std::strerror(err)));
  }
  return Status::Ok();
}

void RemoveAddressFile(const std::string& path, const std::string& address) {
  std::ifstream in(path);
  std::string line;
  if (in && std::getline(in, line) && line == address) std::remove(path.c_str());
}

}  // namespace foundry::coordinator
