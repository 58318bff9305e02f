// Coordinator, worker side: leasing, heartbeats, submissions and the ordered
// commit. See coordinator.h for the model.
#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "coordinator/campaign_run.h"
#include "coordinator/puzzle_checker.h"

namespace foundry::coordinator {

using foundry::v1::Campaign;

// ---------------------------------------------------------------- leasing

std::optional<uint64_t> Coordinator::NextSeqLocked(CampaignRun& run) {
  while (!run.requeued.empty()) {
    const uint64_t seq = *run.requeued.begin();
    run.requeued.erase(run.requeued.begin());
    if (!run.window.Holds(seq)) return seq;  // else a late submission already delivered it
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
  if (run.next_issue - run.window.next_seq() >= allowed) return std::nullopt;
  return run.next_issue++;
}

Result<foundry::v1::LeaseResponse> Coordinator::Lease(const foundry::v1::LeaseRequest& request) {
  if (request.worker_id().empty()) return Status::InvalidArgument("worker_id is required");
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  worker_seen_[request.worker_id()] = now;
  TickLocked(now);

  // Weighted fair share: lowest pass first (see CampaignRun::pass), then the
  // oldest campaign.
  std::vector<CampaignRun*> order;
  for (auto& [id, run] : runs_) {
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
    if (metrics_) metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    return resp;
  }
  resp.set_retry_after_ms(200);
  return resp;
}

Result<foundry::v1::HeartbeatResponse> Coordinator::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  if (!request.worker_id().empty()) worker_seen_[request.worker_id()] = now;
  LeaseRecord* lease = leases_.Find(request.lease_id());
  if (lease == nullptr) {
    return Status::NotFound(fmt::format("no lease '{}' (the coordinator may have restarted)",
                                        request.lease_id()));
  }
  foundry::v1::HeartbeatResponse resp;
  auto it = runs_.find(lease->campaign_id);
  const bool wanted = !lease->lapsed && it != runs_.end() && it->second->running() &&
                      !it->second->window.Holds(lease->seq);
  resp.set_keep_going(wanted);
  if (wanted) lease->deadline = now + options_.lease_ttl;
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

  // What the lease was for.
  const puzzles::Family* family = nullptr;
  Provenance provenance;
  uint64_t seq = 0, first = 0, end = 0;
  foundry::v1::SubmitResponse resp;
  {
    std::lock_guard lock(mu_);
    LeaseRecord* lease = leases_.Find(lease_id);
    if (lease == nullptr) {
      return Status::NotFound(fmt::format("no lease '{}' (unknown or long expired)", lease_id));
    }
    auto it = runs_.find(lease->campaign_id);
    if (it == runs_.end() || !it->second->running() || it->second->window.Holds(lease->seq)) {
      leases_.Remove(lease_id);
      if (metrics_) metrics_->JobOutcome("repeated");
      resp.set_accepted(false);
      return resp;
    }
    const CampaignRun& run = *it->second;
    family = run.family;
    provenance = {run.record.id(), run.record.spec().seed(), run.record.params_json()};
    seq = lease->seq;
    first = seq * run.job_size();
    end = first + run.job_size();
  }

  // Shape checks, then re-verification, outside the lock.
  std::vector<foundry::v1::GeneratedPuzzle> submitted;
  uint64_t next_allowed = first;
  for (auto& chunk : chunks) {
    for (auto& p : *chunk.mutable_puzzles()) {
      if (p.index() < next_allowed || p.index() >= end) {
        return Status::InvalidArgument(fmt::format(
            "puzzle index {} is out of order or outside the job's range [{}, {})", p.index(),
            first, end));
      }
      next_allowed = p.index() + 1;
      submitted.push_back(std::move(p));
    }
  }
  const foundry::v1::JobStats& stats = chunks.back().stats();
  if (stats.candidates() != end - first || stats.accepted() != submitted.size()) {
    return Status::InvalidArgument(fmt::format(
        "job stats disagree with the job: {} candidates and {} accepted reported, "
        "expected {} candidates and {} accepted puzzles sent",
        stats.candidates(), stats.accepted(), end - first, submitted.size()));
  }
  std::string problem;
  CheckedJob checked =
      CheckSubmission(*family, provenance, seq, std::move(submitted), NowUnixMs(), &problem);
  checked.stats = stats;
  if (checked.invalid > 0) {
    fmt::print(stderr, "coordinator: {} puzzles of campaign {} failed re-verification, e.g. {}\n",
               checked.invalid, provenance.campaign_id, problem);
  }

  bool offered = false;
  {
    std::lock_guard lock(mu_);
    leases_.Remove(lease_id);
    auto it = runs_.find(provenance.campaign_id);
    offered = it != runs_.end() && it->second->running() && it->second->window.Offer(std::move(checked));
    if (metrics_) {
      metrics_->JobOutcome(offered ? "committed" : "repeated");
      metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    }
  }
  if (offered) CommitReady(provenance.campaign_id);
  resp.set_accepted(offered);
  return resp;
}

// ---------------------------------------------------------------- commits

void Coordinator::CommitReady(const std::string& campaign_id) {
  std::lock_guard commit_lock(commit_mu_);
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
    Status s = CommitJob(*run, record, std::move(*job));
    std::lock_guard lock(mu_);
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

Status Coordinator::CommitJob(CampaignRun& run, Campaign& record, CheckedJob job) {
  const std::string& family = record.spec().family();
  std::vector<std::string> ids;
  ids.reserve(job.puzzles.size());
  for (const auto& p : job.puzzles) ids.push_back(p.id());
  auto stored_before = store_->ContainsPuzzles(ids);
  if (!stored_before.ok()) return stored_before.status();

  // The first new puzzles in index order, up to the campaign's count.
  storage::CommitBatch batch;
  uint64_t remaining = record.spec().count() - record.counters().stored();
  uint64_t duplicates = 0;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < job.puzzles.size() && remaining > 0; ++i) {
    if ((*stored_before)[i] || !seen.insert(ids[i]).second) {
      ++duplicates;
      continue;
    }
    batch.puzzles.push_back(std::move(job.puzzles[i]));
    --remaining;
  }
  const uint64_t added = batch.puzzles.size();

  auto* c = record.mutable_counters();
  uint64_t rejected = 0;
  for (const auto& [reason, n] : job.stats.rejected_by_reason()) rejected += n;
  c->set_candidates(c->candidates() + job.stats.candidates());
  c->set_accepted(c->accepted() + job.stats.accepted());
  c->set_rejected(c->rejected() + rejected);
  c->set_duplicates(c->duplicates() + duplicates);
  c->set_stored(c->stored() + added);
  c->set_invalid(c->invalid() + job.invalid);
  record.set_next_index((job.seq + 1) * run.job_size());
  record.set_progress(static_cast<double>(c->stored()) / static_cast<double>(record.spec().count()));
  record.set_updated_unix_ms(NowUnixMs());
  if (added > 0) {
    run.candidates_since_new = 0;
    run.duplicates_since_new = 0;
  } else {
    run.candidates_since_new += job.stats.candidates();
    run.duplicates_since_new += duplicates;
  }
  const bool stalled = run.candidates_since_new >= options_.stall_candidates ||
                       run.duplicates_since_new >= options_.stall_duplicates;
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
  batch.campaign = record;

  const auto start = Clock::now();
  FOUNDRY_RETURN_IF_ERROR(store_->Commit(batch));
  if (metrics_) {
    metrics_->StoreWrite(std::chrono::duration<double>(Clock::now() - start).count());
    metrics_->Stored(family, added);
    metrics_->Duplicates(family, duplicates);
    metrics_->Invalid(family, job.invalid);
    const auto counts = store_->PuzzleCounts();
    if (auto it = counts.find(family); it != counts.end()) {
      metrics_->SetStorePuzzles(family, static_cast<double>(it->second));
    }
  }
  return Status::Ok();
}

}  // namespace foundry::coordinator
