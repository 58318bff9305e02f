// Coordinator, worker side: leasing, heartbeats, submissions and the ordered
// commit. See coordinator.h for the model.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "coordinator/campaign_run.h"
#include "checks/content_digest.h"

namespace foundry::coordinator {

using foundry::v1::Campaign;

// ---------------------------------------------------------------- leasing

std::optional<uint64_t> Coordinator::NextSeqLocked(CampaignRun& run) {
  while (!run.requeued.empty()) {
    const uint64_t seq = *run.requeued.begin();
    run.requeued.erase(run.requeued.begin());
    auto released = run.released_at.find(seq);
    if (released != run.released_at.end()) {
      if (metrics_ && !run.Delivered(seq)) {
        metrics_->ReleasedJobLeasedAgain(
            std::chrono::duration<double>(Clock::now() - released->second).count());
      }
      run.released_at.erase(released);
    }
    if (!run.Delivered(seq)) return seq;  // else a late submission already delivered it
  }
  // Lease ahead of the cursor only as far as the campaign is likely to need,
  // judged by how many new puzzles a job has yielded so far (one per
  // candidate before anything is known), and never past the window bound.
  const auto& c = run.record.counters();
  const double remaining = static_cast<double>(run.record.spec().count() - c.stored());
  const double yield_per_job =
      c.candidates() == 0 ? static_cast<double>(run.job_size())
                          : static_cast<double>(run.job_size()) * static_cast<double>(c.stored()) /
                                static_cast<double>(c.candidates());
  double needed = static_cast<double>(options_.max_jobs_ahead);
  if (yield_per_job > 0) needed = std::ceil(remaining / yield_per_job * 1.25) + 1;
  const uint64_t allowed =
      std::clamp<uint64_t>(static_cast<uint64_t>(needed), 1, options_.max_jobs_ahead);
  while (run.Delivered(run.next_issue)) ++run.next_issue;  // after a rollback
  if (run.next_issue - run.window.next_seq() >= allowed) return std::nullopt;
  return run.next_issue++;
}

Result<foundry::v1::LeaseResponse> Coordinator::Lease(const foundry::v1::LeaseRequest& request) {
  if (request.worker_id().empty()) return Status::InvalidArgument("worker_id is required");
  if (request.generation_fingerprint() != fingerprint_) {
    return Status::FailedPrecondition(fmt::format(
        "worker '{}' has generation fingerprint '{}' (build '{}'), this coordinator has '{}': "
        "the two could generate different puzzles for the same candidates; run workers of the "
        "coordinator's build",
        request.worker_id(), request.generation_fingerprint(), request.build(), fingerprint_));
  }
  const auto now = Clock::now();
  std::unique_lock lock(mu_);
  if (trust_.Quarantined(request.worker_id())) {
    return Status::PermissionDenied(fmt::format("worker '{}' is quarantined: {}", request.worker_id(),
                                                trust_.Evidence(request.worker_id())));
  }
  trust_.Seen(request.worker_id(), request.threads(), request.build(), now);
  TickLocked(now, /*refresh=*/false);
  // A worker of one campaign (a batch job's array task) takes only its work
  // and learns when it has ended, so that it can exit.
  const std::string& only = request.campaign_id();
  if (!only.empty()) {
    auto it = runs_.find(only);
    if (it == runs_.end()) {
      return Status::NotFound(fmt::format("no campaign '{}' on this coordinator", only));
    }
    if (!it->second->running()) {
      foundry::v1::LeaseResponse ended;
      ended.set_campaign_ended(true);
      return ended;
    }
  }

  auto verify = [&]() -> std::optional<foundry::v1::LeaseResponse> {
    auto work = TakeVerifyWorkLocked(request.worker_id(), now, only);
    if (!work) return std::nullopt;
    if (metrics_) metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    lock.unlock();  // the job's copy of the claims is made outside the lock
    foundry::v1::LeaseResponse resp;
    *resp.mutable_job() = VerifyJobFor(*work);
    resp.mutable_job()->set_lease_deadline_unix_ms(ToUnixMs(now + options_.lease_ttl));
    resp.mutable_job()->set_heartbeat_interval_ms(
        static_cast<uint32_t>(options_.heartbeat_interval.count()));
    return resp;
  };
  // Verification first (it holds up commits), unless this worker must
  // generate so that another has something to check.
  const bool generate_first = GenerateFirstLocked(request.worker_id());
  if (!generate_first) {
    if (auto resp = verify()) return std::move(*resp);
  }

  // Weighted fair share: lowest pass first (see CampaignRun::pass), then the
  // oldest campaign.
  std::vector<CampaignRun*> order;
  for (auto& [id, run] : runs_) {
    if (!only.empty() && id != only) continue;
    if (run->running() && run->family != nullptr) order.push_back(run.get());
  }
  std::sort(order.begin(), order.end(), [](const CampaignRun* a, const CampaignRun* b) {
    if (a->pass != b->pass) return a->pass < b->pass;
    return a->record.created_unix_ms() < b->record.created_unix_ms();
  });

  foundry::v1::LeaseResponse resp;
  for (CampaignRun* run : order) {
    auto seq = NextSeqLocked(*run);
    if (!seq) continue;
    run->pass += static_cast<double>(run->job_size()) / run->weight();
    const auto deadline = now + options_.lease_ttl;
    const auto& lease = leases_.Grant(run->record.id(), *seq, request.worker_id(), deadline);
    auto* job = resp.mutable_job();
    job->set_lease_id(lease.lease_id);
    job->set_campaign_id(run->record.id());
    job->set_family(run->record.spec().family());
    job->set_params_json(run->record.params_json());
    job->set_seed(run->record.spec().seed());
    job->set_first_index(*seq * run->job_size());
    job->set_end_index((*seq + 1) * run->job_size());
    job->set_lease_deadline_unix_ms(ToUnixMs(deadline));
    job->set_heartbeat_interval_ms(static_cast<uint32_t>(options_.heartbeat_interval.count()));
    job->set_kind(foundry::v1::JOB_KIND_GENERATE);
    if (metrics_) metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    return resp;
  }
  if (generate_first) {
    if (auto checks = verify()) return std::move(*checks);  // nothing to generate: check after all
  }
  resp.set_retry_after_ms(IdleRetryMsLocked(request.worker_id(), now));
  return resp;
}

bool Coordinator::GenerateFirstLocked(const std::string& worker) const {
  // Jobs of each generator waiting for a checker or being checked.
  std::unordered_map<std::string, uint32_t> waiting;
  for (const auto& [id, run] : runs_) {
    if (!run->running()) continue;
    for (const auto& [seq, pv] : run->pending) ++waiting[pv.generator];
  }
  auto outstanding = [&](const std::string& w) {
    auto it = waiting.find(w);
    return leases_.LiveGenerating(w) + (it == waiting.end() ? 0 : it->second);
  };
  // Two more, not one: with one, two lease loops that check each other's
  // jobs (`foundry run`) kept out-generating each other, checks lagged and
  // the campaign ended with more jobs generated for nothing (sudoku: 8,300
  // against 10,500 puzzles/s); with two they run as without the rule, and
  // the cluster's roles still even out.
  const uint32_t mine = outstanding(worker);
  for (const auto& [generator, n] : waiting) {
    if (generator != worker && mine + 2 <= outstanding(generator)) return true;
  }
  return false;
}

bool Coordinator::StillWantedLocked(const LeaseRecord& lease) const {
  auto it = runs_.find(lease.campaign_id);
  if (it == runs_.end()) return false;
  const CampaignRun& run = *it->second;
  switch (lease.kind) {
    case LeaseKind::kGenerate:
      return run.running() && !run.Delivered(lease.seq);
    case LeaseKind::kVerify: {
      // A finished campaign commits nothing more: its checks are moot.
      auto p = run.pending.find(lease.seq);
      return run.running() && p != run.pending.end() && p->second.lease_id == lease.lease_id;
    }
    case LeaseKind::kAudit: {
      // Audits outlive their campaign: a mismatch rolls even a finished one back.
      auto a = run.audits.find(lease.seq);
      return a != run.audits.end() && a->second.lease_id == lease.lease_id;
    }
  }
  return false;
}

Result<foundry::v1::HeartbeatResponse> Coordinator::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  if (!request.worker_id().empty() && !trust_.Quarantined(request.worker_id())) {
    trust_.Seen(request.worker_id(), 0, "", now);
  }
  LeaseRecord* lease = leases_.Find(request.lease_id());
  if (lease == nullptr) {
    return Status::NotFound(fmt::format("no lease '{}' (the coordinator may have restarted)",
                                        request.lease_id()));
  }
  foundry::v1::HeartbeatResponse resp;
  const bool wanted = !lease->lapsed && StillWantedLocked(*lease);
  resp.set_keep_going(wanted);
  if (wanted) lease->deadline = now + options_.lease_ttl;
  if (wanted && lease->kind != LeaseKind::kGenerate) fleet_checked_at_ = now;
  resp.set_lease_deadline_unix_ms(ToUnixMs(lease->deadline));
  return resp;
}

// ---------------------------------------------------------------- submissions

Result<foundry::v1::SubmitResponse> Coordinator::SubmitResults(
    std::vector<foundry::v1::ResultChunk> chunks) {
  if (chunks.empty()) return Status::InvalidArgument("empty submission: no chunk was sent");
  const std::string lease_id = chunks.front().lease_id();
  for (const auto& chunk : chunks) {
    if (chunk.lease_id() != lease_id) {
      return Status::InvalidArgument("all chunks of a submission must quote the same lease_id");
    }
  }
  if (!chunks.back().last()) {
    return Status::InvalidArgument("submission ended before its last chunk (last=true)");
  }
  LeaseRecord lease;
  {
    std::lock_guard lock(mu_);
    LeaseRecord* found = leases_.Find(lease_id);
    if (found == nullptr) {
      return Status::NotFound(fmt::format("no lease '{}' (unknown or long expired)", lease_id));
    }
    lease = *found;
    if (trust_.Quarantined(lease.worker_id)) {
      leases_.Remove(lease_id);
      return Status::PermissionDenied(fmt::format("worker '{}' is quarantined: {}", lease.worker_id,
                                                  trust_.Evidence(lease.worker_id)));
    }
  }
  if (lease.kind == LeaseKind::kGenerate) return SubmitGeneration(lease, std::move(chunks));
  return SubmitVerification(lease, std::move(chunks));
}

Result<foundry::v1::SubmitResponse> Coordinator::SubmitGeneration(
    const LeaseRecord& lease, std::vector<foundry::v1::ResultChunk> chunks) {
  foundry::v1::SubmitResponse resp;
  uint64_t first = 0, end = 0;
  puzzles::Goal goal;
  {
    std::lock_guard lock(mu_);
    auto it = runs_.find(lease.campaign_id);
    if (it == runs_.end() || !it->second->running() || it->second->Delivered(lease.seq)) {
      leases_.Remove(lease.lease_id);
      if (metrics_) metrics_->JobOutcome("repeated");
      resp.set_accepted(false);
      return resp;
    }
    first = lease.seq * it->second->job_size();
    end = first + it->second->job_size();
    goal = it->second->goal;
  }

  // Shape checks: an honest worker never fails them, so a failure
  // quarantines the worker and its job goes to another.
  auto claims = std::make_shared<JobClaims>();
  claims->goal = goal;
  std::string problem;
  uint64_t next_allowed = first;
  for (auto& chunk : chunks) {
    for (auto& p : *chunk.mutable_puzzles()) {
      if (problem.empty() && (p.index() < next_allowed || p.index() >= end)) {
        problem = fmt::format("puzzle index {} is out of order or outside the job's range [{}, {})",
                              p.index(), first, end);
      }
      next_allowed = p.index() + 1;
      claims->claims.push_back(std::move(p));
    }
  }
  for (const auto& p : claims->claims) {
    if (problem.empty() && (p.id().empty() || !puzzles::IsLevel(p.difficulty().level()))) {
      problem = fmt::format("puzzle index {} comes without its claimed id or level", p.index());
    }
  }
  const foundry::v1::JobStats& stats = chunks.back().stats();
  if (problem.empty() && (stats.candidates() != end - first || stats.accepted() != claims->claims.size())) {
    problem = fmt::format(
        "job stats disagree with the job: {} candidates and {} accepted reported, "
        "expected {} candidates and {} accepted puzzles sent",
        stats.candidates(), stats.accepted(), end - first, claims->claims.size());
  }
  const auto now = Clock::now();
  std::optional<VerifyWork> here;
  {
    std::lock_guard lock(mu_);
    leases_.Remove(lease.lease_id);
    if (!problem.empty()) {
      QuarantineLocked(lease.worker_id, "sent a malformed generation job: " + problem);
      auto it = runs_.find(lease.campaign_id);
      if (it != runs_.end() && it->second->running() && !it->second->Delivered(lease.seq)) {
        it->second->requeued.insert(lease.seq);  // another worker runs it
      }
      if (metrics_) metrics_->JobOutcome("refused");
      return Status::InvalidArgument(problem);
    }
    auto it = runs_.find(lease.campaign_id);
    if (it == runs_.end() || !it->second->running() || it->second->Delivered(lease.seq)) {
      if (metrics_) metrics_->JobOutcome("repeated");
      resp.set_accepted(false);
      return resp;
    }
    CampaignRun& run = *it->second;
    PendingVerify pv;
    pv.generator = lease.worker_id;
    claims->regenerate = trust_.SampleFor(lease.worker_id, first, end, &pv.full);
    if (!pv.full && trust_.options().spot_checks) {
      // Only a job committed on a sample may be audited later.
      checks::ClaimDigest digest;
      for (const auto& c : claims->claims) digest.Add(c);
      pv.claim_digest = digest.value();
    }
    pv.job = std::move(claims);
    pv.stats = stats;
    pv.queued = now;
    const bool alone = !trust_.AnotherWorkerAlive(lease.worker_id, now - options_.lease_ttl);
    // Nobody else to verify it: the coordinator does.
    if (alone) pv.lease_id = fmt::format("here-{}", lease.lease_id);
    run.pending.emplace(lease.seq, std::move(pv));
    if (alone) here = CheckWork(run, lease.seq, run.pending.at(lease.seq).lease_id);
    if (metrics_) {
      metrics_->JobOutcome("submitted");
      metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    }
  }
  if (here) VerifyHere(std::move(*here));
  resp.set_accepted(true);
  return resp;
}

// ---------------------------------------------------------------- commits

void Coordinator::CommitReady(const std::string& campaign_id) {
  {
    std::lock_guard lock(mu_);
    commit_wanted_.insert(campaign_id);
  }
  CommitWanted();
}

void Coordinator::CommitWanted() {
  for (;;) {
    std::unique_lock commit_lock(commit_mu_, std::try_to_lock);
    if (!commit_lock.owns_lock()) return;  // the holder commits it (below)
    for (;;) {
      std::string campaign_id;
      {
        std::lock_guard lock(mu_);
        if (commit_wanted_.empty()) break;
        campaign_id = std::move(commit_wanted_.extract(commit_wanted_.begin()).value());
      }
      CommitReadyOf(campaign_id);
    }
    commit_lock.unlock();
    // Whoever asked between the last look and the unlock found commit_mu_
    // taken and left it to this thread.
    std::lock_guard lock(mu_);
    if (commit_wanted_.empty()) return;
  }
}

void Coordinator::CommitReadyOf(const std::string& campaign_id) {
  for (;;) {
    CampaignRun* run = nullptr;
    std::optional<CheckedJob> job;
    Campaign record;
    {
      std::lock_guard lock(mu_);
      auto it = runs_.find(campaign_id);
      if (it == runs_.end() || !it->second->running()) return;
      run = it->second.get();
      job = run->window.PopNext();
      if (!job) return;
      record = run->record;
    }
    // `run` stays valid: runs are never erased, and only this thread (holding
    // commit_mu_) changes a running campaign's record.
    SampledCommit sampled{campaign_id, job->seq, job->claim_digest, record.counters(),
                          run->candidates_since_new, run->duplicates_since_new};
    const bool on_sample = !job->fully_checked;
    const std::string generator = job->generator;
    Status s = CommitJob(*run, record, std::move(*job));
    std::lock_guard lock(mu_);
    if (s.ok() && on_sample) trust_.CommittedOnSample(generator, std::move(sampled));
    if (!s.ok()) {
      fmt::print(stderr, "coordinator: commit for campaign {} failed: {}\n", campaign_id,
                 s.ToString());
      record = run->record;
      record.set_state(foundry::v1::CAMPAIGN_STATE_FAILED);
      record.set_message("store write failed: " + s.message());
      record.set_finished_unix_ms(NowUnixMs());
      (void)store_->PutCampaign(record);  // best effort; the store is failing
    }
    run->record = std::move(record);
    run->rate.Record(Clock::now(), run->record.counters().stored());
    if (metrics_) metrics_->SetProgress(campaign_id, run->record.progress());
  }
}

void Coordinator::ApplyJob(CampaignRun& run, Campaign& record, const CheckedJob& job,
                           const storage::NewPuzzles& kept) const {
  const CoordinatorOptions& options = options_;
  auto* c = record.mutable_counters();
  uint64_t rejected = 0;
  for (const auto& [reason, n] : job.stats.rejected_by_reason()) rejected += n;
  c->set_candidates(c->candidates() + job.stats.candidates());
  c->set_accepted(c->accepted() + job.stats.accepted());
  c->set_rejected(c->rejected() + rejected);
  c->set_duplicates(c->duplicates() + kept.duplicates);
  c->set_stored(c->stored() + kept.added);
  c->set_invalid(c->invalid() + job.invalid);
  record.set_next_index((job.seq + 1) * run.job_size());
  record.set_progress(static_cast<double>(c->stored()) / static_cast<double>(record.spec().count()));
  record.set_updated_unix_ms(NowUnixMs());
  if (kept.added > 0) {
    run.candidates_since_new = 0;
    run.duplicates_since_new = 0;
  } else {
    run.candidates_since_new += job.stats.candidates();
    run.duplicates_since_new += kept.duplicates;
  }
  const bool stalled = run.candidates_since_new >= options.stall_candidates ||
                       run.duplicates_since_new >= options.stall_duplicates;
  if (c->stored() >= record.spec().count()) {
    record.set_state(foundry::v1::CAMPAIGN_STATE_DONE);
    record.set_message(fmt::format("stored {} new puzzles", c->stored()));
    record.set_finished_unix_ms(record.updated_unix_ms());
  } else if (stalled) {
    record.set_state(foundry::v1::CAMPAIGN_STATE_EXHAUSTED);
    record.set_message(fmt::format(
        "exhausted: stored {} of {}; the last {} candidates gave nothing new ({} accepted ones "
        "were all already in the store), so these parameters seem to allow no more distinct "
        "puzzles than the store now holds",
        c->stored(), record.spec().count(), run.candidates_since_new, run.duplicates_since_new));
    record.set_finished_unix_ms(record.updated_unix_ms());
  }
}

Status Coordinator::CommitJob(CampaignRun& run, Campaign& record, CheckedJob job) {
  const std::string family = record.spec().family();
  // The first new puzzles in index order, up to the campaign's count; the
  // store deduplicates inside the write (one lookup per puzzle, under its
  // commit lock) and the record written with them says what was kept.
  storage::CommitBatch batch;
  batch.puzzles = std::move(job.puzzles);
  batch.campaign.set_id(record.id());  // the member keys need it; `finish` fills in the rest
  const uint64_t max_new = record.spec().count() - record.counters().stored();
  const auto start = Clock::now();
  auto kept = store_->CommitNew(std::move(batch), max_new,
                                [&](const storage::NewPuzzles& outcome, Campaign& written) {
                                  ApplyJob(run, record, job, outcome);
                                  written = record;
                                });
  if (!kept.ok()) return kept.status();
  if (metrics_) {
    metrics_->StoreWrite(std::chrono::duration<double>(Clock::now() - start).count());
    metrics_->Stored(family, kept->added);
    metrics_->Duplicates(family, kept->duplicates);
    metrics_->Invalid(family, job.invalid);
    const auto counts = store_->PuzzleCounts();
    if (auto it = counts.find(family); it != counts.end()) {
      metrics_->SetStorePuzzles(family, static_cast<double>(it->second));
    }
  }
  return Status::Ok();
}

}  // namespace foundry::coordinator
