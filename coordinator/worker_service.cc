#include "common/rpc_status.h"
#include "coordinator/services.h"

namespace foundry::coordinator {

namespace {
// A submission may not hold more chunks than a job can need (job_size is at
// most 1,000,000 candidates, 1,000 puzzles a chunk) plus slack.
constexpr size_t kMaxChunks = 1100;
}  // namespace

grpc::ServerUnaryReactor* WorkerServiceImpl::Lease(grpc::CallbackServerContext* ctx,
                                                   const foundry::v1::LeaseRequest* req,
                                                   foundry::v1::LeaseResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker, [&] { return Reply(core_.Lease(*req), resp); });
}

grpc::ServerUnaryReactor* WorkerServiceImpl::Heartbeat(grpc::CallbackServerContext* ctx,
                                                       const foundry::v1::HeartbeatRequest* req,
                                                       foundry::v1::HeartbeatResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker, [&] { return Reply(core_.Heartbeat(*req), resp); });
}

grpc::ServerUnaryReactor* WorkerServiceImpl::ReleaseLeases(grpc::CallbackServerContext* ctx,
                                                           const foundry::v1::ReleaseRequest* req,
                                                           foundry::v1::ReleaseResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker,
                   [&] { return Reply(core_.ReleaseLeases(*req), resp); });
}

grpc::Status WorkerServiceImpl::SubmitResults(grpc::ServerContext* ctx,
                                              grpc::ServerReader<foundry::v1::ResultChunk>* reader,
                                              foundry::v1::SubmitResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kWorker); !denied.ok()) return denied;
  std::vector<foundry::v1::ResultChunk> chunks;
  foundry::v1::ResultChunk chunk;
  while (reader->Read(&chunk)) {
    if (chunks.size() >= kMaxChunks) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "submission has more chunks than any job can produce");
    }
    chunks.push_back(std::move(chunk));
    chunk.Clear();
  }
  return Reply(core_.SubmitResults(std::move(chunks)), resp);
}

}  // namespace foundry::coordinator
