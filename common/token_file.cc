#include "common/token_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace foundry {

Result<std::string> ReadTokenFile(const std::string& path, bool allow_shared) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::InvalidArgument("cannot read token file '" + path +
                                   "': " + std::strerror(errno));
  }
  // fstat of the open file: the mode checked is the mode of what is read.
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument("token file '" + path + "' is not a regular file");
  }
  if (!allow_shared && (st.st_mode & 077) != 0) {
    ::close(fd);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Status::PermissionDenied(
        "token file '" + path + "' has mode " + mode +
        ": the group or others may access it, and a token is a password. Run 'chmod 600 " + path +
        "', or pass " + kAllowSharedTokenFileFlag +
        " (FOUNDRY_ALLOW_SHARED_TOKEN_FILE=1 for the "
        "foundry command) if others sharing it is intended");
  }
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::InvalidArgument("cannot read token file '" + path +
                                     "': " + std::strerror(err));
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace foundry
