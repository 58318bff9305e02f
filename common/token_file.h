// Token files: a bearer token is a password, so the file holding it must be
// the owner's alone, as ssh insists for private keys. One check for every
// program that reads one (--token-file, --admin/reader/worker-token-file,
// FOUNDRY_TOKEN_FILE).
#pragma once

#include <string>

#include "common/status.h"

namespace foundry {

// The flag (and, for the CLI, FOUNDRY_ALLOW_SHARED_TOKEN_FILE=1) that lets a
// program read a token file others may access.
inline constexpr char kAllowSharedTokenFileFlag[] = "--allow-shared-token-file";

// The content of the token file `path`. Unless `allow_shared`, refuses
// (PermissionDenied, naming the file, its mode and the fix) a file whose
// mode gives the group or others any access (mode & 077), as ssh does;
// symbolic links are followed (Kubernetes mounts secrets through them).
// InvalidArgument when it cannot be read.
Result<std::string> ReadTokenFile(const std::string& path, bool allow_shared);

}  // namespace foundry
