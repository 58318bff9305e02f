// RequestFramer: where a request ends, fed the way a socket delivers it (a
// byte at a time too), and what it refuses: chunked bodies as soon as a
// chunk size passes the limit, before their data.
#include "console/request_framer.h"

#include <gtest/gtest.h>

namespace foundry::console {
namespace {

using State = Frame::State;

// Feeds `bytes` one byte more at a time; the last frame.
Frame Trickle(RequestFramer& f, const std::string& bytes) {
  Frame last;
  for (size_t n = 1; n <= bytes.size(); ++n) {
    last = f.Scan(std::string_view(bytes).substr(0, n));
    if (last.state != State::kIncomplete) return last;
  }
  return last;
}

TEST(RequestFramerTest, GetWithoutBodyEndsAtTheEmptyLine) {
  const std::string req = "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /next";
  RequestFramer f;
  const Frame fr = f.Scan(req);
  EXPECT_EQ(fr.state, State::kComplete);
  EXPECT_EQ(fr.length, req.find("GET /next"));
  RequestFramer slow;
  EXPECT_EQ(Trickle(slow, req).length, fr.length);
}

TEST(RequestFramerTest, ContentLengthBody) {
  const std::string req = "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
  RequestFramer f;
  Frame fr = f.Scan(std::string_view(req).substr(0, req.size() - 1));
  EXPECT_EQ(fr.state, State::kIncomplete);
  EXPECT_TRUE(fr.head_complete);
  fr = f.Scan(req);
  EXPECT_EQ(fr.state, State::kComplete);
  EXPECT_EQ(fr.length, req.size());
}

TEST(RequestFramerTest, ChunkedBodyByteByByte) {
  const std::string req =
      "POST /x HTTP/1.1\r\nTransfer-Encoding: "
      "chunked\r\n\r\n5\r\nhello\r\n3;ext=1\r\nabc\r\n0\r\n\r\n";
  RequestFramer f;
  const Frame fr = Trickle(f, req + "tail");
  EXPECT_EQ(fr.state, State::kComplete);
  EXPECT_EQ(fr.length, req.size());
}

TEST(RequestFramerTest, ChunkedBodyPastTheLimitIsRefusedAtItsChunkSize) {
  FrameLimits limits;
  limits.max_body = 1000;
  RequestFramer f(limits);
  const std::string head = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  // 600 + 600 bytes: refused when the second size arrives, before its data.
  const std::string req = head + "258\r\n" + std::string(600, 'a') + "\r\n258\r\n";
  const Frame fr = Trickle(f, req);
  EXPECT_EQ(fr.state, State::kRefused);
  EXPECT_EQ(fr.status, 413);
  // One huge chunk size is refused the same way.
  RequestFramer g(limits);
  EXPECT_EQ(g.Scan(head + "ffffffffffff\r\n").status, 413);
}

TEST(RequestFramerTest, ManyTinyChunksAreRefusedForTheirFraming) {
  FrameLimits limits;
  limits.max_chunk_overhead = 100;
  RequestFramer f(limits);
  std::string req = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 100; ++i) req += "1\r\na\r\n";
  EXPECT_EQ(f.Scan(req).status, 413);
}

TEST(RequestFramerTest, RefusesWhatItCannotFrameSafely) {
  struct Case {
    std::string request;
    int status;
  };
  const Case cases[] = {
      {"GARBAGE\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n", 413},
      {"POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
      {"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"GET / HTTP/1.1\r\nX: " + std::string(20000, 'a'), 431},
  };
  for (const Case& c : cases) {
    RequestFramer f;
    const Frame fr = f.Scan(c.request);
    EXPECT_EQ(fr.state, State::kRefused) << c.request.substr(0, 80);
    EXPECT_EQ(fr.status, c.status) << c.request.substr(0, 80) << ": " << fr.reason;
  }
}

TEST(RequestFramerTest, ExpectContinueIsReportedOnlyWithABody) {
  RequestFramer f;
  EXPECT_TRUE(f.Scan("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n")
                  .expects_continue);
  RequestFramer g;
  EXPECT_FALSE(g.Scan("GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n").expects_continue);
}

TEST(RequestFramerTest, ResetStartsTheNextRequest) {
  RequestFramer f;
  EXPECT_EQ(f.Scan("POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nx").state, State::kComplete);
  f.Reset();
  const Frame fr = f.Scan("GET /b HTTP/1.1\r\n\r\n");
  EXPECT_EQ(fr.state, State::kComplete);
  EXPECT_EQ(fr.length, 19u);
}

}  // namespace
}  // namespace foundry::console
