// Lines for stdout, written a megabyte at a time and at the end: an export
// writes millions of them, and a write per line would cost more than the
// export itself.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace foundry::cli {

class StdoutLines {
 public:
  ~StdoutLines() { Flush(); }
  // Appends `line` and a new line.
  void Add(std::string_view line) {
    buffer_ += line;
    buffer_ += '\n';
    if (buffer_.size() > (1 << 20)) Flush();
  }
  // Writes what is buffered.
  void Flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
    std::fflush(stdout);
  }

 private:
  std::string buffer_;
};

}  // namespace foundry::cli
