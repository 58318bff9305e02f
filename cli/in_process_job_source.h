// InProcessJobSource: the worker's JobSource wired straight to a Coordinator
// in the same process, for `foundry run` (no network, same code paths).
#pragma once

#include "coordinator/coordinator.h"
#include "worker/job_source.h"

namespace foundry::cli {

class InProcessJobSource : public worker::JobSource {
 public:
  // `core` must outlive this object.
  explicit InProcessJobSource(coordinator::Coordinator& core) : core_(core) {}

  Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& request) override {
    auto r = core_.Lease(request);
    // Nothing crosses a network here: ask again soon.
    if (r.ok() && !r->has_job()) r->set_retry_after_ms(5);
    return r;
  }
  Result<foundry::v1::HeartbeatResponse> Heartbeat(
      const foundry::v1::HeartbeatRequest& request) override {
    return core_.Heartbeat(request);
  }
  Result<foundry::v1::SubmitResponse> Submit(
      std::vector<foundry::v1::ResultChunk> chunks) override {
    return core_.SubmitResults(std::move(chunks));
  }
  Result<foundry::v1::ReleaseResponse> Release(
      const foundry::v1::ReleaseRequest& request) override {
    return core_.ReleaseLeases(request);
  }

 private:
  coordinator::Coordinator& core_;
};

}  // namespace foundry::cli
