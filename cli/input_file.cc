#include "cli/input_file.h"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace foundry::cli {

Result<std::ifstream> OpenInputFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument(fmt::format("cannot read {}: it is a directory", path));
  }
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument(fmt::format("cannot read {}", path));
  return in;
}

}  // namespace foundry::cli
