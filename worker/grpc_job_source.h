// GrpcJobSource: a JobSource backed by the coordinator's WorkerService.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/client_security.h"
#include "foundry/v1/worker.grpc.pb.h"
#include "worker/job_source.h"

namespace foundry::worker {

class GrpcJobSource : public JobSource {
 public:
  // `channel` is shared; every call has `rpc_timeout` as its deadline and
  // carries `security`'s bearer token.
  GrpcJobSource(std::shared_ptr<grpc::Channel> channel, std::chrono::milliseconds rpc_timeout,
                ClientSecurity security = {});

  Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& request) override;
  Result<foundry::v1::HeartbeatResponse> Heartbeat(
      const foundry::v1::HeartbeatRequest& request) override;
  Result<foundry::v1::SubmitResponse> Submit(std::vector<foundry::v1::ResultChunk> chunks) override;
  // Its deadline is at most 2 s: it runs while the worker is being stopped.
  Result<foundry::v1::ReleaseResponse> Release(const foundry::v1::ReleaseRequest& request) override;

  // Sends every later call over `channel` (the coordinator moved: a
  // requeued batch job on another host). Calls in flight finish on the old one.
  void Redirect(std::shared_ptr<grpc::Channel> channel);

 private:
  using Stub = foundry::v1::WorkerService::Stub;
  std::shared_ptr<Stub> stub() const;
  void Prepare(grpc::ClientContext& ctx, std::chrono::milliseconds timeout) const;

  mutable std::mutex mu_;  // guards stub_ (swapped by Redirect)
  std::shared_ptr<Stub> stub_;
  std::chrono::milliseconds rpc_timeout_;
  ClientSecurity security_;
};

}  // namespace foundry::worker
