// CampaignRun: the coordinator's in-memory state of one campaign, shared by
// its parts (coordinator_state.h). Private to coordinator/.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "common/unix_time.h"
#include "coordinator/claim_check.h"
#include "coordinator/commit_window.h"
#include "coordinator/job_times.h"
#include "coordinator/lease_table.h"
#include "coordinator/rate_meter.h"
#include "coordinator/worker_trust.h"
#include "foundry/v1/campaign.pb.h"
#include "puzzles/family.h"

namespace foundry::coordinator {

// A submitted generation job waiting for its verification job.
struct PendingVerify {
  std::string generator;
  std::shared_ptr<JobClaims> job;  // claims and the indices to re-generate
  bool full = false;               // every index is re-generated
  foundry::v1::JobStats stats;
  uint64_t claim_digest = 0;
  std::string lease_id;  // the verification lease; empty while waiting
  Clock::time_point queued;
};

// A committed job of a quarantined worker, to re-generate in full.
struct PendingAudit {
  SampledCommit commit;
  std::string suspect;
  std::string lease_id;
  Clock::time_point queued;
};

// One campaign's in-memory state. The record is the persisted part.
struct CampaignRun {
  foundry::v1::Campaign record;
  const puzzles::Family* family = nullptr;            // null: the family is not in this build
  puzzles::Goal goal;                                 // from the params; claims off it are lies
  uint64_t next_issue = 0;                            // next job never leased so far
  std::set<uint64_t> requeued;                        // lapsed jobs to lease again, lowest first
  std::map<uint64_t, Clock::time_point> released_at;  // requeued ones handed back, since when
  CommitWindow window;
  std::map<uint64_t, PendingVerify> pending;  // submitted, awaiting verification
  std::map<uint64_t, PendingAudit> audits;    // committed, being re-generated
  uint64_t candidates_since_new = 0;
  uint64_t duplicates_since_new = 0;
  RateMeter rate;
  // Lease to submission of the recent jobs of each kind: a lease held far
  // longer holds up the commit and is taken back (JobDesk::TakeBackStaleLocked).
  JobTimes generate_times, verify_times;
  // Jobs taken back from a worker that held them that long: a generation job
  // goes to another worker first, a check is done by the coordinator.
  struct TakenBack {
    std::string worker;
    LeaseKind kind;
  };
  std::map<uint64_t, TakenBack> taken_back;
  // Stride scheduling: the candidates leased so far divided by the weight.
  // The next lease goes to the eligible campaign with the lowest pass, which
  // shares leases in proportion to the weights.
  double pass = 0;

  double weight() const { return std::max(1, record.spec().priority()); }

  bool running() const { return record.state() == foundry::v1::CAMPAIGN_STATE_RUNNING; }
  uint64_t job_size() const { return record.spec().job_size(); }
  // Job `seq` is committed, buffered or awaiting verification.
  bool Delivered(uint64_t seq) const { return window.Holds(seq) || pending.count(seq) != 0; }
};

// `t` on the wall clock, for deadlines sent to workers.
inline int64_t ToUnixMs(Clock::time_point t) {
  return NowUnixMs() +
         std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
}

}  // namespace foundry::coordinator
