// JobSource: where a worker's lease loop gets jobs and sends results.
//
// Over the network this is the coordinator's WorkerService (GrpcJobSource);
// in `foundry run` it is the coordinator core in the same process. The lease
// loop cannot tell the two apart.
//
// Thread safety: implementations must allow concurrent calls.
#pragma once

#include <vector>

#include "common/status.h"
#include "foundry/v1/worker.pb.h"

namespace foundry::worker {

class JobSource {
 public:
  virtual ~JobSource() = default;

  // A job, or a response without one (retry later). Unavailable when the
  // coordinator cannot be reached.
  virtual Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& request) = 0;

  // Extends a lease. NotFound when the coordinator does not know it.
  virtual Result<foundry::v1::HeartbeatResponse> Heartbeat(
      const foundry::v1::HeartbeatRequest& request) = 0;

  // Delivers a job's output: the chunks of one SubmitResults stream, in order.
  virtual Result<foundry::v1::SubmitResponse> Submit(
      std::vector<foundry::v1::ResultChunk> chunks) = 0;

  // Hands leases back before their deadline (a worker that stops), so that
  // their jobs go to other workers at once.
  virtual Result<foundry::v1::ReleaseResponse> Release(
      const foundry::v1::ReleaseRequest& request) = 0;
};

}  // namespace foundry::worker
