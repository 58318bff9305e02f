// Where a server may listen without protection, and which Host headers name
// this machine.
#pragma once

#include <arpa/inet.h>

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace foundry {

// True for `localhost`, `::1` (bracketed or not) and an IPv4 address of
// 127.0.0.0/8 written as one (four decimal octets): only this machine can
// reach them. A name that merely starts with "127." (127.evil.example) is
// not one: its owner's DNS may point it anywhere, this machine included.
inline bool IsLoopbackHost(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost" || host == "::1") return true;
  const std::string text(host);
  in_addr v4{};
  // inet_pton takes only the dotted-quad form: no "127.1", no octal, no names.
  if (inet_pton(AF_INET, text.c_str(), &v4) != 1) return false;
  return (ntohl(v4.s_addr) >> 24) == 127;
}

// "host:port" taken apart: the host without the brackets of an IPv6
// address ("[::1]:7420" gives "::1"), and the port.
struct HostPort {
  std::string host;
  int port = 0;
};

// Nothing when `address` does not end in ":PORT" (1 to 5 digits, at most
// 65535) after a non-empty host.
inline std::optional<HostPort> SplitHostPort(std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view digits = address.substr(colon + 1);
  int port = 0;
  const char* end = digits.data() + digits.size();
  // Digits only: from_chars would read "-1" as a port.
  if (digits.empty() || digits.size() > 5 || digits.front() < '0' || digits.front() > '9' ||
      std::from_chars(digits.data(), end, port).ptr != end || port > 65535) {
    return std::nullopt;
  }
  std::string_view host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return HostPort{std::string(host), port};
}

// INVALID_ARGUMENT naming `flag` unless `address` is HOST:PORT
// (SplitHostPort) or, where `unix_ok`, a gRPC "unix:" socket address: a
// typo is named as one, not reported as a refusal or a failed bind.
inline Status CheckListenAddress(std::string_view flag, const std::string& address,
                                 bool unix_ok = false) {
  if (SplitHostPort(address) || (unix_ok && address.starts_with("unix:"))) return Status::Ok();
  return Status::InvalidArgument(std::string(flag) + " '" + address +
                                 "' is not HOST:PORT with a port of 0..65535 (e.g. "
                                 "127.0.0.1:8080; port 0 picks one)");
}

// IsLoopbackHost of the host part of "host:port" (of all of it, without a port).
inline bool IsLoopbackAddress(const std::string& address) {
  const auto split = SplitHostPort(address);
  return IsLoopbackHost(split ? std::string_view(split->host) : std::string_view(address));
}

// Whether an HTTP Host header names this machine's server on `port`: a
// loopback host (IsLoopbackHost) and that very port (no port means 80).
inline bool IsLoopbackHostHeader(std::string_view header, int port) {
  if (const auto split = SplitHostPort(header)) {
    return split->port == port && IsLoopbackHost(split->host);
  }
  // No port at all (a bare name, or "[::1]"), or one that is not a number.
  const bool portless = header.find(':') == std::string_view::npos || header.ends_with(']');
  return portless && port == 80 && IsLoopbackHost(header);
}

// HOST:PORT with a port of 1..65535 and no blanks: an address a client can
// dial (port 0 only means "pick one" to a server).
inline bool IsDialHostPort(const std::string& address) {
  const auto split = SplitHostPort(address);
  return split && split->port > 0 && address.find_first_of(" \t") == std::string::npos;
}

// INVALID_ARGUMENT unless `address` is IsDialHostPort or a gRPC target with
// a scheme ("dns:", "unix:", "ipv4:", "ipv6:"). A bare name ("node17") would
// be dialled at gRPC's default port, 443, and "host:-1" at 65535: a typo,
// said at once instead of as an unreachable coordinator. The message starts
// with `flag` when one is given.
inline Status CheckDialAddress(std::string_view flag, const std::string& address) {
  for (std::string_view scheme : {"dns:", "unix:", "ipv4:", "ipv6:"}) {
    if (address.starts_with(scheme)) return Status::Ok();
  }
  if (IsDialHostPort(address)) return Status::Ok();
  return Status::InvalidArgument((flag.empty() ? "" : std::string(flag) + " ") + "'" + address +
                                 "' is not HOST:PORT (e.g. 127.0.0.1:7420)");
}

}  // namespace foundry
