// InProcessJobSource: the worker's JobSource wired straight to a Coordinator
// in the same process, for `foundry run` (no network, same code paths).
#pragma once

#include <optional>
#include <utility>

#include "coordinator/coordinator.h"
#include "worker/job_executor.h"
#include "worker/job_source.h"

namespace foundry::cli {

class InProcessJobSource : public worker::JobSource {
 public:
  // `core` and `executor` must outlive this object.
  InProcessJobSource(coordinator::Coordinator& core, worker::JobExecutor& executor)
      : core_(core), executor_(executor) {}

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
    // The claims' checks and the ordered commit (which a Submit may do for
    // several jobs) run on the executor's threads, like the jobs: `--threads
    // T` then computes on T cores, not T plus a committing loop's.
    std::optional<Result<foundry::v1::SubmitResponse>> out;
    executor_.Execute([&] { out.emplace(core_.SubmitResults(std::move(chunks))); });
    return std::move(*out);
  }
  Result<foundry::v1::ReleaseResponse> Release(
      const foundry::v1::ReleaseRequest& request) override {
    return core_.ReleaseLeases(request);
  }

 private:
  coordinator::Coordinator& core_;
  worker::JobExecutor& executor_;
};

}  // namespace foundry::cli
