// CheckDesk: verification, trust, quarantine, audit and roll-back.
//
// The coordinator takes no worker's word and does not verify puzzles
// itself: a submitted generation job waits until a verification job,
// leased to another worker, has run the family's Verify on every puzzle and
// re-generated a sample of its indices (all of them while the generator is
// on probation). The desk compares claims and answers (ids, grades, content
// digests), settles a disagreement by computing the disputed index itself,
// quarantines the liar, and re-generates and repairs whatever a quarantined
// worker's jobs committed on a sample (worker_trust.h, claim_check.h,
// docs/operations.md). A check that no worker can or will take is done here.
//
// State: the pending checks and audits live in each CampaignRun, the
// worker records in the shared state (coordinator_state.h), both under its
// `mu`. Checking and arbitration run without it; roll-back holds the commit
// lock. Private to coordinator/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "coordinator/commit_line.h"
#include "coordinator/coordinator_state.h"
#include "coordinator/verify_work.h"
#include "foundry/v1/worker.pb.h"

namespace foundry::coordinator {

class CheckDesk {
 public:
  CheckDesk(CoordinatorState& state, CommitLine& commits) : s_(state), commits_(commits) {}

  // Leases `worker` a verification or audit job, if one waits that it may
  // take (never its own); with `only_campaign` non-empty, only that
  // campaign's. REQUIRES: mu held.
  std::optional<VerifyWork> TakeWorkLocked(const std::string& worker, Clock::time_point now,
                                           const std::string& only_campaign = {});
  // Whether a job that `worker` may verify, not yet leased to anyone, is the
  // next its campaign commits: every later job waits in the commit window
  // until it is checked. (With `only_campaign`, that campaign alone.)
  // REQUIRES: mu held.
  bool HoldsUpCommitLocked(const std::string& worker, const std::string& only_campaign = {}) const;
  // A verification or audit job's answers, under `lease` (already checked
  // to be live and not quarantined). accepted=false for a lease settled
  // meanwhile; InvalidArgument (and the worker quarantined) for answers
  // that do not have the job's shape.
  Result<foundry::v1::SubmitResponse> Submit(const LeaseRecord& lease,
                                             std::vector<foundry::v1::ResultChunk> chunks);
  // Runs `work` here (no other worker could) and settles it.
  // REQUIRES: mu not held.
  void VerifyHere(VerifyWork work);
  // Checks nobody took within verify_wait while the fleet checked nothing
  // for as long, and checks whose every possible taker has gone: marked as
  // taken by the coordinator, for VerifyHere. REQUIRES: mu held.
  std::vector<VerifyWork> TakeStaleWorkLocked(Clock::time_point now);
  // Quarantines `worker`: its leases and unverified jobs go to others, its
  // sampled commits are audited. REQUIRES: mu held.
  void QuarantineLocked(const std::string& worker, const std::string& evidence);

  // The workers seen lately and every quarantined one.
  foundry::v1::ListWorkersResponse ListWorkers();
  // Verification jobs waiting or running, and audits not yet finished.
  size_t outstanding();

 private:
  // Compares, arbitrates, quarantines; offers an agreed job for commit.
  Status Settle(VerifyWork work, const std::string& verifier,
                std::vector<foundry::v1::PuzzleVerdict> verdicts,
                std::vector<foundry::v1::Regenerated> regenerated);
  // Compares an audit's full re-generation with the claims once committed;
  // rolls the campaign back on a mismatch. InvalidArgument (and the auditor
  // quarantined) for answers that do not cover the job's range.
  Status SettleAudit(const VerifyWork& work, const std::string& auditor,
                     const std::vector<foundry::v1::Regenerated>& regenerated);
  // Undoes the commits of `campaign_id` from job `seq` on and runs them
  // again. REQUIRES: the commit lock held, mu not held.
  Status RollBack(const std::string& campaign_id, uint64_t seq, const SampledCommit& restore);

  CoordinatorState& s_;
  CommitLine& commits_;
};

}  // namespace foundry::coordinator
