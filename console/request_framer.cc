#include "console/request_framer.h"

#include <fmt/format.h>

namespace foundry::console {
namespace {

bool SameWord(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The line in `bytes` from `from` to its '\n' (without "\r\n"), and where
// the next one starts; npos when there is no '\n' yet.
size_t LineEnd(std::string_view bytes, size_t from, std::string_view* line) {
  const size_t nl = bytes.find('\n', from);
  if (nl == std::string_view::npos) return nl;
  std::string_view l = bytes.substr(from, nl - from);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  *line = l;
  return nl + 1;
}

}  // namespace

Frame RequestFramer::Refuse(int status, std::string reason) {
  Frame f;
  f.state = Frame::State::kRefused;
  f.status = status;
  f.reason = std::move(reason);
  return f;
}

Frame RequestFramer::ParseHead(std::string_view head) {
  std::string_view line;
  size_t next = LineEnd(head, 0, &line);
  // "METHOD SP target SP HTTP/x.y"
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == 0 || sp2 == std::string_view::npos || line.substr(sp2 + 1).substr(0, 5) != "HTTP/") {
    return Refuse(400, "the request line is not 'METHOD TARGET HTTP/1.1'");
  }
  Frame f;
  bool has_length = false, has_encoding = false;
  for (;;) {
    next = LineEnd(head, next, &line);
    if (next == std::string_view::npos || line.empty()) break;
    if (line.front() == ' ' || line.front() == '\t') {
      return Refuse(400, "folded header lines are not accepted");
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 ||
        line.substr(0, colon).find_first_of(" \t") != std::string_view::npos) {
      return Refuse(400, "a header line is not 'Name: value'");
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = Trim(line.substr(colon + 1));
    if (SameWord(name, "Content-Length")) {
      if (value.empty() || value.size() > 18 ||
          value.find_first_not_of("0123456789") != std::string_view::npos) {
        return Refuse(400, "Content-Length is not a number");
      }
      const uint64_t n = std::stoull(std::string(value));
      if (has_length && n != content_length_)
        return Refuse(400, "two different Content-Length headers");
      has_length = true;
      content_length_ = n;
    } else if (SameWord(name, "Transfer-Encoding")) {
      if (has_encoding) return Refuse(400, "more than one Transfer-Encoding header");
      has_encoding = true;
      if (!SameWord(value, "chunked")) {
        return Refuse(501, "the only Transfer-Encoding accepted is 'chunked'");
      }
      chunked_ = true;
    } else if (SameWord(name, "Expect") && SameWord(value, "100-continue")) {
      f.expects_continue = true;
    }
  }
  if (has_length && has_encoding) {
    return Refuse(400, "a request may not have both Content-Length and Transfer-Encoding");
  }
  if (content_length_ > limits_.max_body) {
    return Refuse(413, fmt::format("a request body has at most {} bytes, this one announces {}",
                                   limits_.max_body, content_length_));
  }
  f.expects_continue = f.expects_continue && (chunked_ || content_length_ > 0);
  f.head_complete = true;
  return f;
}

Frame RequestFramer::Scan(std::string_view bytes) {
  if (head_length_ == 0) {
    // The head ends at the first empty line: "\n\n" or "\n\r\n".
    size_t end = std::string_view::npos;
    for (size_t i = searched_; i < bytes.size() && i <= limits_.max_head; ++i) {
      if (bytes[i] != '\n') continue;
      if (i + 1 < bytes.size() && bytes[i + 1] == '\n') {
        end = i + 2;
        break;
      }
      if (i + 2 < bytes.size() && bytes[i + 1] == '\r' && bytes[i + 2] == '\n') {
        end = i + 3;
        break;
      }
    }
    if (end == std::string_view::npos || end > limits_.max_head) {
      if (bytes.size() > limits_.max_head) {
        return Refuse(431, fmt::format("the request line and headers have at most {} bytes",
                                       limits_.max_head));
      }
      searched_ = bytes.size() < 2 ? 0 : bytes.size() - 2;
      return {};
    }
    head_ = ParseHead(bytes.substr(0, end));
    if (head_.state == Frame::State::kRefused) return head_;
    head_length_ = end;
    pos_ = end;
  }
  if (chunked_) return ScanChunked(bytes);
  Frame f = head_;
  if (bytes.size() >= head_length_ + content_length_) {
    f.state = Frame::State::kComplete;
    f.length = head_length_ + content_length_;
  }
  return f;
}

Frame RequestFramer::ScanChunked(std::string_view bytes) {
  while (pos_ < bytes.size() && part_ != ChunkPart::kDone) {
    if (pos_ - head_length_ > decoded_ + limits_.max_chunk_overhead) {
      return Refuse(413, fmt::format("a chunked body may add at most {} bytes of framing to its "
                                     "data (too many small chunks)",
                                     limits_.max_chunk_overhead));
    }
    std::string_view line;
    switch (part_) {
      case ChunkPart::kSize: {
        const size_t next = LineEnd(bytes, pos_, &line);
        if (next == std::string_view::npos) {
          if (bytes.size() - pos_ > 1024) return Refuse(400, "a chunk size line is too long");
          return head_;
        }
        const std::string_view hex = Trim(line.substr(0, line.find(';')));
        if (hex.empty() || hex.size() > 15 ||
            hex.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
          return Refuse(400, "a chunk size is not a hexadecimal number");
        }
        const uint64_t size = std::stoull(std::string(hex), nullptr, 16);
        if (decoded_ + size > limits_.max_body) {
          return Refuse(413, fmt::format("a request body has at most {} bytes; this chunked one "
                                         "passes that",
                                         limits_.max_body));
        }
        decoded_ += size;
        chunk_left_ = size;
        pos_ = next;
        part_ = size == 0 ? ChunkPart::kTrailers : ChunkPart::kData;
        break;
      }
      case ChunkPart::kData: {
        const size_t n = std::min<uint64_t>(chunk_left_, bytes.size() - pos_);
        pos_ += n;
        chunk_left_ -= n;
        if (chunk_left_ == 0) part_ = ChunkPart::kDataEnd;
        break;
      }
      case ChunkPart::kDataEnd:
        if (bytes[pos_] == '\n') {
          pos_ += 1;
        } else if (bytes[pos_] == '\r') {
          if (pos_ + 1 >= bytes.size()) return head_;
          if (bytes[pos_ + 1] != '\n') return Refuse(400, "a chunk does not end with CRLF");
          pos_ += 2;
        } else {
          return Refuse(400, "a chunk is longer than its size");
        }
        part_ = ChunkPart::kSize;
        break;
      case ChunkPart::kTrailers: {
        const size_t next = LineEnd(bytes, pos_, &line);
        if (next == std::string_view::npos) {
          if (bytes.size() - pos_ > limits_.max_head) return Refuse(431, "trailer lines too long");
          return head_;
        }
        pos_ = next;
        if (line.empty()) part_ = ChunkPart::kDone;
        break;
      }
      case ChunkPart::kDone:
        break;
    }
  }
  Frame f = head_;
  if (part_ == ChunkPart::kDone) {
    f.state = Frame::State::kComplete;
    f.length = pos_;
  }
  return f;
}

}  // namespace foundry::console
