// Where a server may listen without protection, and which Host headers name
// this machine.
#pragma once

#include <arpa/inet.h>

#include <string>
#include <string_view>

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

// IsLoopbackHost of the host part of "host:port".
inline bool IsLoopbackAddress(const std::string& address) {
  const auto colon = address.rfind(':');
  return IsLoopbackHost(std::string_view(address).substr(0, colon == std::string::npos ? address.size() : colon));
}

// Whether an HTTP Host header names this machine's server on `port`: a
// loopback host (IsLoopbackHost) and that very port (no port means 80).
inline bool IsLoopbackHostHeader(std::string_view header, int port) {
  std::string_view host = header;
  std::string_view port_text;
  const auto colon = header.rfind(':');
  const auto bracket = header.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    host = header.substr(0, colon);
    port_text = header.substr(colon + 1);
  }
  int given = port_text.empty() ? 80 : 0;
  for (char c : port_text) {
    if (c < '0' || c > '9' || given > 65535) return false;
    given = given * 10 + (c - '0');
  }
  return given == port && IsLoopbackHost(host);
}

}  // namespace foundry
