#include "worker/grpc_job_source.h"

#include <algorithm>

#include "common/rpc_status.h"

namespace foundry::worker {

GrpcJobSource::GrpcJobSource(std::shared_ptr<grpc::Channel> channel,
                             std::chrono::milliseconds rpc_timeout, ClientSecurity security)
    : stub_(foundry::v1::WorkerService::NewStub(std::move(channel))),
      rpc_timeout_(rpc_timeout),
      security_(std::move(security)) {}

void GrpcJobSource::Redirect(std::shared_ptr<grpc::Channel> channel) {
  std::shared_ptr<Stub> fresh = foundry::v1::WorkerService::NewStub(std::move(channel));
  std::lock_guard lock(mu_);
  stub_ = std::move(fresh);
}

std::shared_ptr<GrpcJobSource::Stub> GrpcJobSource::stub() const {
  std::lock_guard lock(mu_);
  return stub_;
}

void GrpcJobSource::Prepare(grpc::ClientContext& ctx, std::chrono::milliseconds timeout) const {
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  security_.Apply(ctx);
}

Result<foundry::v1::LeaseResponse> GrpcJobSource::Lease(const foundry::v1::LeaseRequest& request) {
  grpc::ClientContext ctx;
  Prepare(ctx, rpc_timeout_);
  foundry::v1::LeaseResponse resp;
  grpc::Status s = stub()->Lease(&ctx, request, &resp);
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

Result<foundry::v1::HeartbeatResponse> GrpcJobSource::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  grpc::ClientContext ctx;
  Prepare(ctx, rpc_timeout_);
  foundry::v1::HeartbeatResponse resp;
  grpc::Status s = stub()->Heartbeat(&ctx, request, &resp);
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

Result<foundry::v1::SubmitResponse> GrpcJobSource::Submit(
    std::vector<foundry::v1::ResultChunk> chunks) {
  grpc::ClientContext ctx;
  Prepare(ctx, rpc_timeout_);
  foundry::v1::SubmitResponse resp;
  auto writer = stub()->SubmitResults(&ctx, &resp);
  for (const auto& chunk : chunks) {
    if (!writer->Write(chunk)) break;  // the server ended the call; Finish says why
  }
  writer->WritesDone();
  grpc::Status s = writer->Finish();
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

Result<foundry::v1::ReleaseResponse> GrpcJobSource::Release(
    const foundry::v1::ReleaseRequest& request) {
  grpc::ClientContext ctx;
  Prepare(ctx, std::min<std::chrono::milliseconds>(rpc_timeout_, std::chrono::seconds(2)));
  foundry::v1::ReleaseResponse resp;
  grpc::Status s = stub()->ReleaseLeases(&ctx, request, &resp);
  if (!s.ok()) return FromGrpc(s);
  return resp;
}

}  // namespace foundry::worker
