// SubmitResults streams hold a server thread each while open: the
// coordinator bounds how many are open at once (--max-submit-streams) and
// ends one whose client sends nothing (--stream-idle-seconds). Before, a
// client that opened streams and sent nothing held a thread for each for
// as long as it liked (2,000 such streams: 2,016 threads).
#include <thread>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "foundry/v1/worker.grpc.pb.h"
#include "tests/integration/cluster.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;

// One SubmitResults stream on a connection of its own.
struct SubmitStream {
  grpc::ClientContext ctx;
  v1::SubmitResponse resp;
  std::unique_ptr<v1::WorkerService::Stub> stub;
  std::unique_ptr<grpc::ClientWriter<v1::ResultChunk>> writer;

  explicit SubmitStream(const std::string& address) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    stub = v1::WorkerService::NewStub(
        grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    writer = stub->SubmitResults(&ctx, &resp);
  }
  // Sends one chunk on a lease that does not exist, and ends the stream.
  grpc::Status SendUnknownLease() {
    v1::ResultChunk chunk;
    chunk.set_lease_id("l-none");
    chunk.set_last(true);
    writer->Write(chunk);
    writer->WritesDone();
    return writer->Finish();
  }
};

TEST(SubmitStreamsTest, OpenStreamsAreBoundedAndIdleOnesEnd) {
  TempDir dir;
  Subprocess coordinator(
      {Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db", dir.path() + "/db",
       "--max-submit-streams", "2", "--stream-idle-seconds", "8"},
      dir.path() + "/coordinator.log");
  const int port = WaitForNumberAfter(coordinator, "listening on port ");
  ASSERT_GT(port, 0) << coordinator.Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);

  // Two streams that send nothing take both places...
  SubmitStream idle_1(address), idle_2(address);
  // ...so a third is refused, naming the limit (once the two are in).
  grpc::Status third;
  for (int i = 0; i < 40; ++i) {
    SubmitStream probe(address);
    third = probe.SendUnknownLease();
    if (third.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << third.error_message();
  EXPECT_NE(
      third.error_message().find("at most 2 submission streams at once (--max-submit-streams)"),
      std::string::npos)
      << third.error_message();

  // The coordinator ends the idle ones (about 8 s on; they never half-close),
  // and the places are free again: a stream is read and answered.
  EXPECT_EQ(idle_1.writer->Finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(idle_2.writer->Finish().error_code(), grpc::StatusCode::CANCELLED);
  SubmitStream after(address);
  const grpc::Status answered = after.SendUnknownLease();
  EXPECT_EQ(answered.error_code(), grpc::StatusCode::NOT_FOUND) << answered.error_message();
}

}  // namespace
}  // namespace foundry::testing
