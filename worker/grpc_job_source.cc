#include "worker/grpc_job_source.h"

#include "common/rpc_status.h"

namespace foundry::worker {

GrpcJobSource::GrpcJobSource(std::shared_ptr<grpc::Channel> channel,
                             std::chrono::milliseconds rpc_timeout, ClientSecurity security)
    : stub_(foundry::v1::WorkerService::NewStub(std::move(channel))),
      rpc_timeout_(rpc_timeout),
      security_(std::move(security)) {}

void GrpcJobSource::SetDeadline(grpc::ClientContext& ctx) const {
  ctx.set_deadline(std::chrono::system_clock::now() + rpc_timeout_);
  security_.Apply(ctx);
}

Result<foundry::v1::LeaseResponse> GrpcJobSource::Lease(const foundry::v1::LeaseRequest& request) {
  grpc::ClientContext ctx;
  SetDeadline(ctx);
  foundry::v1::LeaseResponse resp;
  grpc::Status s = stub_->Lease(&ctx, request, &resp);
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

Result<foundry::v1::HeartbeatResponse> GrpcJobSource::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  grpc::ClientContext ctx;
  SetDeadline(ctx);
  foundry::v1::HeartbeatResponse resp;
  grpc::Status s = stub_->Heartbeat(&ctx, request, &resp);
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

Result<foundry::v1::SubmitResponse> GrpcJobSource::Submit(
    std::vector<foundry::v1::ResultChunk> chunks) {
  grpc::ClientContext ctx;
  SetDeadline(ctx);
  foundry::v1::SubmitResponse resp;
  auto writer = stub_->SubmitResults(&ctx, &resp);
  for (const auto& chunk : chunks) {
    if (!writer->Write(chunk)) break;  // the server ended the call; Finish says why
  }
  writer->WritesDone();
  grpc::Status s = writer->Finish();
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

}  // namespace foundry::worker
