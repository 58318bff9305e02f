// JobDesk: the worker side of the coordinator. Leases jobs (checks first,
// so that commits are not held up, then generation by weighted fair share
// across campaigns), keeps them alive by heartbeats, takes submissions and
// takes back the leases of workers that stop or vanish.
//
// A campaign is cut into jobs of `job_size` consecutive candidate indices;
// job k covers [k*job_size, (k+1)*job_size). A generation job's output is
// shape-checked here and queued for its check (check_desk.h); checked jobs
// are committed in order by the CommitLine.
//
// State: the leases in the shared state and each campaign's queue of jobs
// to lease (CampaignRun::next_issue, requeued), all under its `mu`.
// Private to coordinator/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "coordinator/check_desk.h"
#include "coordinator/coordinator_state.h"
#include "foundry/v1/worker.pb.h"

namespace foundry::coordinator {

// The most a submission on one lease may hold, so that a stream is refused
// as soon as it passes what its job could need.
struct SubmissionBound {
  size_t chunks = 0;
  size_t bytes = 0;
};

class JobDesk {
 public:
  JobDesk(CoordinatorState& state, CheckDesk& checks) : s_(state), checks_(checks) {}

  // The contracts of Coordinator's methods of the same names.
  Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& request);
  Result<foundry::v1::HeartbeatResponse> Heartbeat(const foundry::v1::HeartbeatRequest& request);
  Result<foundry::v1::SubmitResponse> SubmitResults(std::vector<foundry::v1::ResultChunk> chunks);
  Result<foundry::v1::ReleaseResponse> ReleaseLeases(const foundry::v1::ReleaseRequest& request);
  Result<SubmissionBound> SubmissionBoundFor(const std::string& lease_id);

  // Re-queues lapsed leases. With `refresh` (the ticker's call, not every
  // Lease's), first takes back the lease a campaign's commit waits on when
  // it is stale (TakeBackStaleLocked), and after counts the live workers
  // (O(workers)) and refreshes the gauges. REQUIRES: mu held.
  void TickLocked(Clock::time_point now, bool refresh);

 private:
  // A generation job's output, shape-checked: queued for verification.
  Result<foundry::v1::SubmitResponse> SubmitGeneration(
      const LeaseRecord& lease, std::vector<foundry::v1::ResultChunk> chunks);
  // How long an idle worker should wait before asking again: the fleet's
  // idle polling stays near 500 Leases/s whatever its size (200 ms for up
  // to 100 workers, 2 s at 1,000), jittered so that workers do not ask in
  // step. REQUIRES: mu held.
  uint32_t IdleRetryMsLocked(const std::string& worker_id, Clock::time_point now) const;
  // Whether `worker` should be offered generation before verification: when
  // another worker has at least two more jobs generating or waiting for a
  // check than it has. A worker may not check its own jobs, so a fleet
  // whose roles settle (one worker only checking, the other only
  // generating) would leave the generator idle once the commit window is
  // full; the worker with fewer jobs of its own in flight generates, so
  // that the other has something to check. Never while a job `worker` may
  // check (of `only_campaign`, when set) is the one its campaign's commits
  // wait on. REQUIRES: mu held.
  bool GenerateFirstLocked(const std::string& worker, const std::string& only_campaign) const;
  // The next job of `run` to lease to `worker`, if any; a job taken back
  // from `worker` for stalling goes to another worker while one is alive.
  // REQUIRES: mu held.
  std::optional<uint64_t> NextSeqLocked(CampaignRun& run, const std::string& worker);
  // A lease, heartbeated or not, that the commit of its campaign waits on
  // (the job at the commit cursor, or its check) and that has been held
  // longer than 4 lease TTLs and 4 times the median of the campaign's
  // recent jobs of its kind (once 3 are done), is ended as if it had lapsed: a worker that
  // hangs, or lies that it is working, while its heartbeats go on, would
  // otherwise hold up the campaign for ever. A generation job goes to
  // another worker first (its late result is still used if it comes before
  // the other's); a check is done by the coordinator
  // (CheckDesk::TakeStaleWorkLocked).
  // REQUIRES: mu held.
  void TakeBackStaleLocked(Clock::time_point now);

  CoordinatorState& s_;
  CheckDesk& checks_;
};

}  // namespace foundry::coordinator
