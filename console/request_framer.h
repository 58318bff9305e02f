// RequestFramer: where one HTTP/1.1 request ends in the bytes a connection
// has sent so far, without trusting the client. The console's connection
// gate (http_gate.h) reads requests itself and hands only complete ones to
// the HTTP library, so it must know when the head is whole and how long the
// body is: a Content-Length, or a chunked body decoded chunk by chunk so
// that the body limit holds as soon as a chunk size passes it (the library
// would read a chunked body whole before any check).
//
// Thread safety: none; one framer per connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace foundry::console {

struct FrameLimits {
  // Request line and headers together (the library allows 8 KiB a line).
  size_t max_head = 16 << 10;
  // Body, as decoded (Content-Length, or the sum of the chunk sizes).
  size_t max_body = 1 << 20;
  // Chunk-size lines, chunk extensions and trailers a chunked body may add
  // to its data: a body of tiny chunks is refused before it costs more.
  size_t max_chunk_overhead = 64 << 10;
};

// What the bytes seen so far amount to.
struct Frame {
  enum class State {
    kIncomplete,  // wait for more bytes
    kComplete,    // `length` bytes from the start are one whole request
    kRefused,     // answer `status` with `reason` and close
  };
  State state = State::kIncomplete;
  // The head is whole (its body may still be coming).
  bool head_complete = false;
  // The head asks "Expect: 100-continue" and announces a body.
  bool expects_continue = false;
  size_t length = 0;
  int status = 0;  // 400, 413, 431 or 501 when refused
  std::string reason;
};

class RequestFramer {
 public:
  explicit RequestFramer(FrameLimits limits = {}) : limits_(limits) {}

  // Looks at `bytes`, the connection's bytes from the start of this request.
  // REQUIRES: each call's `bytes` begins with the previous call's (the
  // buffer only grew); the work done before is not repeated.
  Frame Scan(std::string_view bytes);

  // Forgets this request: the next Scan starts a new one.
  void Reset() { *this = RequestFramer(limits_); }

 private:
  Frame Refuse(int status, std::string reason);
  Frame ParseHead(std::string_view head);
  Frame ScanChunked(std::string_view bytes);

  FrameLimits limits_;
  Frame head_;              // what the head said, once complete
  size_t head_length_ = 0;  // 0 until the head is complete
  size_t searched_ = 0;     // bytes searched for the end of the head
  // The body: a fixed length, or chunked.
  bool chunked_ = false;
  uint64_t content_length_ = 0;
  // Chunked decoding: where the next unparsed byte is, and what it is.
  enum class ChunkPart { kSize, kData, kDataEnd, kTrailers, kDone };
  ChunkPart part_ = ChunkPart::kSize;
  size_t pos_ = 0;
  uint64_t chunk_left_ = 0;
  uint64_t decoded_ = 0;
};

}  // namespace foundry::console
