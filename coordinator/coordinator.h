// Coordinator: campaigns, job leasing and the ordered commit of results.
//
// The core of foundry-coordinator without the network: the gRPC services are
// thin adapters over it, and `foundry run` drives it in-process. It composes
// four parts, each with its own file, state and lock contract:
//   JobDesk (job_desk.h)          leases, heartbeats, submissions;
//   CheckDesk (check_desk.h)      verification, trust, quarantine, audits
//                                 and roll-back;
//   CommitLine (commit_line.h)    the ordered commit into the store;
//   PuzzleImporter (puzzle_importer.h)  imports from files;
// over the campaigns, leases and worker records they share
// (coordinator_state.h). A campaign of count N ends with the first N
// distinct accepted candidates of its stream that the store did not hold,
// whoever ran the jobs, and a restarted coordinator resumes from the
// persisted cursor. docs/architecture.md follows one campaign through.
//
// Thread safety: every public method may be called from any thread.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "coordinator/check_desk.h"
#include "coordinator/commit_line.h"
#include "coordinator/coordinator_metrics.h"
#include "coordinator/coordinator_options.h"
#include "coordinator/coordinator_state.h"
#include "coordinator/job_desk.h"
#include "coordinator/puzzle_importer.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"
#include "storage/store.h"

namespace foundry::coordinator {

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
  // What a submission on `lease_id` may hold: a chunk per item its job
  // can produce (a generation job's candidates; a check's verdicts and
  // re-generations, twice its job's) and one more, and 16 MiB plus 256 KiB
  // an item. The service asks at the first chunk and stops reading past it.
  // NotFound (as SubmitResults) for an unknown lease.
  Result<SubmissionBound> SubmissionBoundFor(const std::string& lease_id);
  // Takes back the listed leases of `request.worker_id()` that are still
  // live: their jobs are offered again on the next Lease. Leases unknown,
  // lapsed or held by another worker are skipped.
  Result<foundry::v1::ReleaseResponse> ReleaseLeases(const foundry::v1::ReleaseRequest& request);

  // The workers seen lately and every quarantined one.
  foundry::v1::ListWorkersResponse ListWorkers();

  // Verification jobs waiting or running, and audits of quarantined
  // workers' commits not yet finished, over all campaigns.
  size_t checks_outstanding();

  storage::Store& store() { return *state_.store; }

 private:
  Coordinator(storage::Store* store, CoordinatorOptions options, CoordinatorMetrics* metrics);

  void AddRun(foundry::v1::Campaign record, const puzzles::Family* family);
  // `run` with its current rate. REQUIRES: state_.mu held.
  foundry::v1::Campaign Snapshot(const CampaignRun& run) const;
  // Every 200 ms: lapsed leases back, gauges, and checks nobody will take.
  void TickerLoop();

  CoordinatorState state_;
  CommitLine commits_{state_};
  CheckDesk checks_{state_, commits_};
  JobDesk jobs_{state_, checks_};
  PuzzleImporter importer_{state_, commits_};

  std::mutex ticker_mu_;
  std::condition_variable ticker_cv_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace foundry::coordinator
