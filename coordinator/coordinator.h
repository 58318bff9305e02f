// Coordinator: campaigns, job leasing and the ordered commit of results.
//
// The core of foundry-coordinator without the network: the gRPC services are
// thin adapters over it, and `foundry run` drives it in-process. A campaign
// is cut into jobs of `job_size` consecutive candidate indices; job k covers
// [k*job_size, (k+1)*job_size). Jobs are leased to workers, results are
// re-verified, buffered in a CommitWindow and committed in job order, each
// commit one atomic store write that also moves the campaign's cursor. So a
// campaign of count N ends with the first N distinct accepted candidates of
// its stream that the store did not hold, whoever ran the jobs, and a
// restarted coordinator resumes from the persisted cursor.
//
// The coordinator takes no worker's word and does not verify puzzles
// itself: a submitted generation job waits until a verification job, leased
// to another worker, has run the family's Verify on every puzzle and
// re-generated a sample of its indices (all of them while the generator is
// on probation). The coordinator compares claims and answers (ids, grades,
// content digests), settles a disagreement by computing the disputed index
// itself, quarantines the liar, and re-generates and repairs whatever a
// quarantined worker's jobs committed on a sample (worker_trust.h,
// claim_check.h, docs/operations.md). When no other worker is alive it
// verifies the job itself.
//
// Thread safety: every public method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "coordinator/commit_window.h"
#include "coordinator/coordinator_metrics.h"
#include "coordinator/lease_table.h"
#include "coordinator/rate_meter.h"
#include "coordinator/worker_trust.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"
#include "storage/store.h"

namespace foundry::coordinator {

struct CoordinatorOptions {
  // A lease lapses this long after its last heartbeat. Default 15 s.
  std::chrono::milliseconds lease_ttl{15000};
  // Workers are told to heartbeat this often. Default 3 s.
  std::chrono::milliseconds heartbeat_interval{3000};
  // Candidates per job when the campaign does not say. Default 2048.
  uint32_t default_job_size = 2048;
  // Most jobs leased or waiting to commit ahead of a campaign's cursor;
  // bounds the CommitWindow and the work lost at a campaign's end.
  uint32_t max_jobs_ahead = 32;
  // Largest count a campaign may ask for.
  uint64_t max_count = 100'000'000;
  // A campaign ends as exhausted when its last this-many committed
  // candidates gave nothing new (the family rejects nearly everything)...
  uint64_t stall_candidates = 2'000'000;
  // ...or when its last this-many accepted candidates were all already
  // stored (a small puzzle space, used up).
  uint64_t stall_duplicates = 20'000;
  // Probation, spot-check sample rate (worker_trust.h).
  TrustOptions trust;
  // A verification job nobody has taken for this long, while no worker
  // checked anything for as long, is done by the coordinator itself.
  // Default 10 s.
  std::chrono::milliseconds verify_wait{10000};
  // Workers must present this generation fingerprint at Lease; empty means
  // puzzles::GenerationFingerprint() of this build.
  std::string generation_fingerprint;
};

// One puzzle of an import, as read from an export file (see Import).
struct ImportItem {
  uint64_t line = 0;  // where it came from, echoed in rejections
  foundry::v1::Puzzle puzzle;
};

// What an import did so far; also carries its campaigns between chunks.
struct ImportSession {
  uint64_t stored = 0;
  uint64_t duplicates = 0;
  std::vector<std::pair<uint64_t, std::string>> rejected;  // (line, reason)
  std::map<std::string, foundry::v1::Campaign> campaigns;  // by family
};

class Coordinator {
 public:
  // Loads every stored campaign and resumes the running ones. `store` and
  // `metrics` (nullable) must outlive the coordinator.
  static Result<std::unique_ptr<Coordinator>> Open(storage::Store* store,
                                                   CoordinatorOptions options,
                                                   CoordinatorMetrics* metrics);
  ~Coordinator();

  // ---- campaigns ----
  // Validates `spec` (InvalidArgument naming the bad field) and starts it.
  Result<foundry::v1::Campaign> SubmitCampaign(const foundry::v1::CampaignSpec& spec);
  // NotFound for an unknown id.
  Result<foundry::v1::Campaign> GetCampaign(const std::string& campaign_id);
  // Newest first.
  std::vector<foundry::v1::Campaign> ListCampaigns(bool running_only);
  // Stops a running campaign (committed puzzles stay); a finished one is
  // returned unchanged. NotFound for an unknown id.
  Result<foundry::v1::Campaign> CancelCampaign(const std::string& campaign_id);

  // ---- imports ----
  // Verifies each item with its family (well formed, the solution is the
  // only one, the id when given matches the puzzle) and stores the good
  // ones under one finished campaign per family and session; a bad item is
  // rejected with its reason in `session`, never stored. Puzzles already
  // stored (or seen earlier in the session) count as duplicates. Errors are
  // store failures only; what was committed before stays.
  Status ImportChunk(ImportSession& session, std::vector<ImportItem> items);
  // Makes the session's campaigns visible in ListCampaigns.
  void FinishImport(const ImportSession& session);

  // ---- workers ----
  // A verification job (first, so that commits are not held up) or a
  // generation job, or none. FailedPrecondition for a worker of another
  // generation fingerprint; PermissionDenied for a quarantined worker.
  Result<foundry::v1::LeaseResponse> Lease(const foundry::v1::LeaseRequest& request);
  // NotFound for a lease this coordinator never issued (or long forgot).
  Result<foundry::v1::HeartbeatResponse> Heartbeat(const foundry::v1::HeartbeatRequest& request);
  // One job's output. NotFound for an unknown lease; InvalidArgument for
  // chunks that disagree with the job (the worker is quarantined: an honest
  // worker never sends them). A repeated or late submission of a job
  // already committed is accepted=false, not an error.
  Result<foundry::v1::SubmitResponse> SubmitResults(std::vector<foundry::v1::ResultChunk> chunks);
  // Takes back the listed leases of `request.worker_id()` that are still
  // live: their jobs are offered again on the next Lease. Leases unknown,
  // lapsed or held by another worker are skipped.
  Result<foundry::v1::ReleaseResponse> ReleaseLeases(const foundry::v1::ReleaseRequest& request);

  // The workers seen lately and every quarantined one.
  foundry::v1::ListWorkersResponse ListWorkers();

  // Verification jobs waiting or running, and audits of quarantined
  // workers' commits not yet finished, over all campaigns.
  size_t checks_outstanding();

  storage::Store& store() { return *store_; }

 private:
  struct CampaignRun;

  Coordinator(storage::Store* store, CoordinatorOptions options, CoordinatorMetrics* metrics);

  // Re-queues lapsed leases; with `refresh`, also counts the live workers
  // (O(workers): the ticker does it, not every Lease) and refreshes the
  // gauges. REQUIRES: mu_ held.
  void TickLocked(Clock::time_point now, bool refresh);
  // Puts the work of `lease` (no longer live) back: a generation job into
  // its campaign's queue unless delivered, a check or an audit up for
  // another worker. REQUIRES: mu_ held.
  void ReturnLeaseLocked(const LeaseRecord& lease);
  // How long an idle worker should wait before asking again: the fleet's
  // idle polling stays near 500 Leases/s whatever its size (200 ms for up
  // to 100 workers, 2 s at 1,000), jittered so that workers do not ask in
  // step. REQUIRES: mu_ held.
  uint32_t IdleRetryMsLocked(const std::string& worker_id, Clock::time_point now) const;
  // Whether `lease`'s work still matters: its generation job is not yet
  // delivered by anyone and its campaign runs, or its check is still the
  // one the job waits for. Heartbeats answer "stop" when it does not.
  // REQUIRES: mu_ held.
  bool StillWantedLocked(const LeaseRecord& lease) const;
  // Whether `worker` should be offered generation before verification: when
  // another worker has at least two more jobs generating or waiting for a
  // check than it has. A worker may not check its own jobs, so a fleet whose roles settle
  // (one worker only checking, the other only generating) leaves the
  // generator idle once the commit window is full (bulls-cows, whose Verify
  // costs 4.4x its generation: workers 37% and 100% busy). The worker with
  // fewer jobs of its own in flight generates, so that the other has
  // something to check. REQUIRES: mu_ held.
  bool GenerateFirstLocked(const std::string& worker) const;
  // The next job of `run` to lease, if any. REQUIRES: mu_ held.
  std::optional<uint64_t> NextSeqLocked(CampaignRun& run);
  // Asks for the jobs of `campaign_id` that are next in order to be
  // committed, and commits them here unless another thread holds commit_mu_:
  // that thread commits them before it lets go. So a Submit waits for its
  // own commit at most, never for others' (at 1,000 workers, every Submit
  // queued behind whichever was committing).
  void CommitReady(const std::string& campaign_id);
  // Commits what was asked for (commit_wanted_) while commit_mu_ is free,
  // until nothing is left. REQUIRES: commit_mu_ and mu_ not held.
  void CommitWanted();
  // Commits the ready jobs of one campaign. REQUIRES: commit_mu_ held, mu_
  // not held.
  void CommitReadyOf(const std::string& campaign_id);
  // commit_mu_ for work other than commits (a cancel, an import, a
  // roll-back): blocks until it is free, and on release commits what was
  // asked for meanwhile, since those asking could not take it.
  class CommitExclusive {
   public:
    explicit CommitExclusive(Coordinator& c) : c_(c), lock_(c.commit_mu_) {}
    ~CommitExclusive() {
      lock_.unlock();
      c_.CommitWanted();
    }
    CommitExclusive(const CommitExclusive&) = delete;
    CommitExclusive& operator=(const CommitExclusive&) = delete;

   private:
    Coordinator& c_;
    std::unique_lock<std::mutex> lock_;
  };
  // Commits one job: dedup, one store write, new campaign record.
  // REQUIRES: commit_mu_ held, mu_ not held.
  Status CommitJob(CampaignRun& run, foundry::v1::Campaign& record, CheckedJob job);
  // `record` after `job`, of which the store kept `kept`: counters, cursor,
  // and DONE or EXHAUSTED when the job ends the campaign.
  void ApplyJob(CampaignRun& run, foundry::v1::Campaign& record, const CheckedJob& job,
                const storage::NewPuzzles& kept) const;

  // ---- verification (coordinator_verify.cc) ----
  struct VerifyWork;
  // Hands `worker` a verification or audit job, if one waits that it may
  // take. REQUIRES: mu_ held.
  // With `only_campaign` non-empty, only work of that campaign.
  std::optional<VerifyWork> TakeVerifyWorkLocked(const std::string& worker, Clock::time_point now,
                                                 const std::string& only_campaign = {});
  static foundry::v1::Job VerifyJobFor(const VerifyWork& work);
  // The work of checking `run`'s pending job `seq`, or of auditing its
  // committed job `seq`, under `lease_id`.
  static VerifyWork CheckWork(const CampaignRun& run, uint64_t seq, const std::string& lease_id);
  static VerifyWork AuditWork(const CampaignRun& run, uint64_t seq, const std::string& lease_id);
  // A generation job's output, shape-checked: queued for verification.
  Result<foundry::v1::SubmitResponse> SubmitGeneration(const LeaseRecord& lease,
                                                       std::vector<foundry::v1::ResultChunk> chunks);
  // A verification or audit job's answers.
  Result<foundry::v1::SubmitResponse> SubmitVerification(const LeaseRecord& lease,
                                                         std::vector<foundry::v1::ResultChunk> chunks);
  // Compares, arbitrates, quarantines; offers an agreed job for commit.
  // InvalidArgument (and the verifier quarantined) for answers that do not
  // have the job's shape.
  Status Settle(VerifyWork work, const std::string& verifier,
                std::vector<foundry::v1::PuzzleVerdict> verdicts,
                std::vector<foundry::v1::Regenerated> regenerated);
  // Compares an audit's full re-generation with the claims once committed;
  // rolls the campaign back on a mismatch. InvalidArgument (and the auditor
  // quarantined) for answers that do not cover the job's range.
  Status SettleAudit(const VerifyWork& work, const std::string& auditor,
                     const std::vector<foundry::v1::Regenerated>& regenerated);
  // Runs `work` here (no other worker could) and settles it.
  void VerifyHere(VerifyWork work);
  // Verification jobs nobody took within verify_wait, while the fleet
  // checked nothing for as long. REQUIRES: mu_ held.
  std::vector<VerifyWork> TakeStaleVerifyWorkLocked(Clock::time_point now);
  // Quarantines `worker`: its leases and unverified jobs go to others, its
  // sampled commits are audited. REQUIRES: mu_ held.
  void QuarantineLocked(const std::string& worker, const std::string& evidence);
  // Undoes the commits of `campaign_id` from job `seq` on and runs them
  // again. REQUIRES: commit_mu_ held, mu_ not held.
  Status RollBack(const std::string& campaign_id, uint64_t seq, const SampledCommit& restore);
  void AddRun(foundry::v1::Campaign record, const puzzles::Family* family);
  foundry::v1::Campaign Snapshot(const CampaignRun& run) const;
  void TickerLoop();

  storage::Store* store_;
  const CoordinatorOptions options_;
  CoordinatorMetrics* metrics_;

  // Serialises commits across campaigns: dedup checks and writes must not
  // interleave. Taken before mu_, never after.
  std::mutex commit_mu_;
  // Guards everything below.
  mutable std::mutex mu_;
  // Campaigns with jobs offered for commit since commit_mu_'s holder last
  // looked (CommitReady).
  std::set<std::string> commit_wanted_;
  std::map<std::string, std::unique_ptr<CampaignRun>> runs_;
  LeaseTable leases_;
  WorkerTrust trust_;
  size_t alive_workers_ = 0;  // as of the last refreshing tick
  // When a worker last took, heartbeated or handed in a verification or
  // audit: while the fleet checks, the coordinator leaves checks to it.
  Clock::time_point fleet_checked_at_{};
  std::string fingerprint_;

  std::mutex ticker_mu_;
  std::condition_variable ticker_cv_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace foundry::coordinator
