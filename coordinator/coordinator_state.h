// CoordinatorState: what the coordinator's parts share, and the one lock
// that guards it.
//
// The parts (commit_line.h, check_desk.h, job_desk.h, puzzle_importer.h)
// each keep their own state and reach the campaigns, leases and worker
// records through this. Lock contract: `mu` guards every mutable member
// below; a part's method named ...Locked requires it held. CommitLine's
// commit lock is taken before `mu`, never after. Nothing here blocks on the
// store or the network while `mu` is held.
// Private to coordinator/.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "coordinator/campaign_run.h"
#include "coordinator/coordinator_metrics.h"
#include "coordinator/coordinator_options.h"
#include "coordinator/lease_table.h"
#include "coordinator/worker_trust.h"
#include "storage/store.h"

namespace foundry::coordinator {

struct CoordinatorState {
  // `store` and `metrics` (nullable) must outlive the state.
  CoordinatorState(storage::Store* store, CoordinatorOptions options, CoordinatorMetrics* metrics);

  storage::Store* const store;
  const CoordinatorOptions options;
  CoordinatorMetrics* const metrics;
  // The generation fingerprint workers must present.
  const std::string fingerprint;

  mutable std::mutex mu;
  std::map<std::string, std::unique_ptr<CampaignRun>> runs;  // never erased
  LeaseTable leases;
  WorkerTrust trust;
  size_t alive_workers = 0;  // as of the last refreshing tick
  // When a worker last took, heartbeated or handed in a verification or
  // audit: while the fleet checks, the coordinator leaves checks to it.
  Clock::time_point fleet_checked_at{};

  // Puts the work of `lease` (no longer live) back: a generation job into
  // its campaign's queue unless delivered, a check or an audit up for
  // another worker. REQUIRES: mu held.
  void ReturnLeaseLocked(const LeaseRecord& lease);
  // Whether `lease`'s work still matters: its generation job is not yet
  // delivered by anyone and its campaign runs, or its check is still the
  // one the job waits for. Heartbeats answer "stop" when it does not.
  // REQUIRES: mu held.
  bool StillWantedLocked(const LeaseRecord& lease) const;
};

}  // namespace foundry::coordinator
