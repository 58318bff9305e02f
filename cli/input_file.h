// Files the foundry command reads line by line (JSON Lines to verify or
// import, id lists to exclude).
#pragma once

#include <fstream>
#include <string>

#include "common/status.h"

namespace foundry::cli {

// `path` opened for reading. InvalidArgument naming it when it cannot be
// read, or when it is a directory: a directory opens on Linux and reads as
// no lines, so `foundry import DIR` would report success having read nothing.
Result<std::ifstream> OpenInputFile(const std::string& path);

// A line with nothing but blanks (spaces, tabs, a CR of a CRLF file): the
// readers skip it, as they skip an empty one, and it keeps its line number.
inline bool IsBlankLine(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace foundry::cli
