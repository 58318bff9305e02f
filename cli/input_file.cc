#include "cli/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace foundry::cli {

Result<std::ifstream> OpenInputFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument(fmt::format("cannot read {}: it is a directory", path));
  }
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    // errno from the failed open(2) says why: no such file, no permission.
    const int err = errno;
    return Status::InvalidArgument(err != 0
                                       ? fmt::format("cannot read {}: {}", path, std::strerror(err))
                                       : fmt::format("cannot read {}", path));
  }
  return in;
}

}  // namespace foundry::cli
