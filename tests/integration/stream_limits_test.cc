// The coordinator bounds what unread export streams can hold: a raw gRPC
// client (the generated stub, not the foundry command) opens streams and
// never reads them. Past the per-client and total limits it gets
// RESOURCE_EXHAUSTED naming the limit; idle streams are ended, after which a
// legitimate export runs to its end; 1,000 unread streams leave the
// coordinator's threads and memory within the documented bounds.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "foundry/v1/store.grpc.pb.h"
#include "tests/integration/cluster.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;

// One export stream of its own connection (a local subchannel pool: no
// sharing with other channels), with an optional bearer token.
struct RawStream {
  std::unique_ptr<grpc::ClientContext> ctx = std::make_unique<grpc::ClientContext>();
  std::unique_ptr<v1::PuzzleStore::Stub> stub;
  std::unique_ptr<grpc::ClientReader<v1::Puzzle>> reader;

  RawStream(const std::string& address, const std::string& token) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    // The stream's receive window stays at HTTP/2's 64 KiB. With gRPC's
    // bandwidth-delay probe on, a busy loopback could grow an unread
    // stream's window past the whole export: the server then wrote all of it
    // and had nothing left to hold or to cancel (seen in 1 run of 2 beside a
    // busy core).
    args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
    stub = v1::PuzzleStore::NewStub(
        grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
    if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
    v1::ExportRequest req;
    req.set_include_solution(true);
    reader = stub->ExportPuzzles(ctx.get(), req);
  }
  // Reads one message: true when the stream was admitted (it delivers).
  bool Admitted() {
    v1::Puzzle p;
    return reader->Read(&p);
  }
  // Reads to the end; the final status, and how many puzzles came.
  grpc::Status Drain(size_t* count = nullptr) {
    v1::Puzzle p;
    size_t n = 0;
    while (reader->Read(&p)) ++n;
    if (count) *count = n;
    return reader->Finish();
  }
};

class StreamLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 20,000 puzzles: far more than flow control lets through unread.
    auto run = RunCommand({Bin("foundry"), "run", "--family", "secret-number", "--count", "20000",
                           "--db", Path("db"), "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    for (const char* role : {"admin", "reader"}) {
      const std::string path = Path(std::string(role) + ".token");
      std::ofstream(path) << role << "-stream-test-token\n";
      ::chmod(path.c_str(), 0600);
    }
  }

  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  int Start(const std::vector<std::string>& limits) {
    std::vector<std::string> argv{Bin("foundry-coordinator"),
                                  "--listen",
                                  "127.0.0.1:0",
                                  "--db",
                                  Path("db"),
                                  "--admin-token-file",
                                  Path("admin.token"),
                                  "--reader-token-file",
                                  Path("reader.token")};
    argv.insert(argv.end(), limits.begin(), limits.end());
    coordinator_ = std::make_unique<Subprocess>(argv, Path("coordinator.log"));
    return WaitForNumberAfter(*coordinator_, "listening on port ");
  }

  TempDir dir_;
  std::unique_ptr<Subprocess> coordinator_;
};

TEST_F(StreamLimitsTest, PerClientAndTotalLimitsThenIdleStreamsEnd) {
  const int port =
      Start({"--max-streams", "6", "--max-streams-per-client", "4", "--stream-idle-seconds", "2"});
  ASSERT_GT(port, 0) << coordinator_->Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);
  const std::string reader = "reader-stream-test-token", admin = "admin-stream-test-token";

  // A reader opens four streams, reads one puzzle of each and stops.
  std::vector<std::unique_ptr<RawStream>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<RawStream>(address, reader));
    ASSERT_TRUE(held.back()->Admitted())
        << "stream " << i << ": " << held.back()->Drain().error_message();
  }
  // A fifth of the same token: refused, naming the per-client limit.
  RawStream fifth(address, reader);
  grpc::Status s = fifth.Drain();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("--max-streams-per-client"), std::string::npos)
      << s.error_message();

  // Another client still gets the two places left in all, then the total is full.
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<RawStream>(address, admin));
    ASSERT_TRUE(held.back()->Admitted()) << held.back()->Drain().error_message();
  }
  RawStream seventh(address, admin);
  s = seventh.Drain();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("at most 6 export streams at once (--max-streams)"),
            std::string::npos)
      << s.error_message();

  // The idle streams are ended after about 2 s; then a reader that reads
  // gets its whole export. Generous: up to 30 s on a loaded machine.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  size_t exported = 0;
  for (;;) {
    RawStream legit(address, reader);
    s = legit.Drain(&exported);
    if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED ||
        std::chrono::steady_clock::now() > deadline) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(exported, 20000u);
  // Each held stream was cancelled by the coordinator.
  for (auto& h : held) EXPECT_EQ(h->Drain().error_code(), grpc::StatusCode::CANCELLED);
}

TEST_F(StreamLimitsTest, AThousandUnreadStreamsStayWithinTheDocumentedBounds) {
  // The total is the binding limit here (64 by default): one client may
  // open as many as it likes.
  const int port = Start({"--max-streams-per-client", "100000"});
  ASSERT_GT(port, 0) << coordinator_->Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);
  const pid_t pid = coordinator_->pid();
  const long threads_before = ProcStatus(pid, "Threads");

  // 1,000 streams over 50 connections; none is read.
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < 50; ++i) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    channels.push_back(
        grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
  }
  struct Open {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<v1::PuzzleStore::Stub> stub;
    std::unique_ptr<grpc::ClientReader<v1::Puzzle>> reader;
  };
  std::vector<Open> open;
  for (int i = 0; i < 1000; ++i) {
    Open o{std::make_unique<grpc::ClientContext>(),
           v1::PuzzleStore::NewStub(channels[i % channels.size()]), nullptr};
    o.ctx->AddMetadata("authorization", "Bearer reader-stream-test-token");
    v1::ExportRequest req;
    req.set_include_solution(true);
    o.reader = o.stub->ExportPuzzles(o.ctx.get(), req);
    open.push_back(std::move(o));
  }
  // The refused calls end at once, but a burst of them may briefly take a
  // thread each (a loaded machine once showed 677 for a moment): wait
  // (up to 15 s, generous) for what the held streams keep.
  long threads = 0, peak = 0;
  const auto settle = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    threads = ProcStatus(pid, "Threads");
    peak = std::max(peak, threads);
  } while (threads >= 164 && std::chrono::steady_clock::now() < settle);
  const long rss_kb = ProcStatus(pid, "VmRSS");
  std::printf(
      "coordinator with 1,000 unread streams: %ld threads (%ld before, %ld at most "
      "seen), %ld MB RSS\n",
      threads, threads_before, peak, rss_kb / 1024);
  // docs/operations.md: threads stay under 64 + 100 (64 streams and the
  // coordinator's own), memory under 400 MB.
  EXPECT_LT(threads, 164);
  EXPECT_LT(rss_kb, 400L * 1024);
  // The coordinator still answers a reader that reads (after the unread
  // ones are cancelled, which is the client's own doing here).
  for (auto& o : open) o.ctx->TryCancel();
  for (auto& o : open) o.reader->Finish();
  RawStream legit(address, "reader-stream-test-token");
  size_t exported = 0;
  grpc::Status s = legit.Drain(&exported);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(exported, 20000u);
}

}  // namespace
}  // namespace foundry::testing
