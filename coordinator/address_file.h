// The rendezvous file of `foundry-coordinator --address-file`: where workers
// started by another batch job (`foundry-worker --coordinator-file`) find
// this coordinator on a shared filesystem.
#pragma once

#include <string>

#include "common/status.h"

namespace foundry::coordinator {

// The host to write for a server bound to `listen` ("host:port"):
// `advertise` when given, else the listen host, else (a wildcard such as
// 0.0.0.0 or [::], which no client can dial) this machine's host name.
std::string AdvertisedHost(const std::string& listen, const std::string& advertise);

// Replaces `path` with "host:port\n" in one rename, so a reader never sees a
// partial line. Errors name the file.
Status WriteAddressFile(const std::string& path, const std::string& address);

// Removes `path` if it still holds `address` (a newer coordinator may have
// taken it over), so that no worker dials a coordinator that has exited.
void RemoveAddressFile(const std::string& path, const std::string& address);

}  // namespace foundry::coordinator
