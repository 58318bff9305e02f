#include "coordinator/commit_line.h"

#include <fmt/format.h>

namespace foundry::coordinator {

using foundry::v1::Campaign;

void CommitLine::Ready(const std::string& campaign_id) {
  {
    std::lock_guard lock(s_.mu);
    wanted_.insert(campaign_id);
  }
  CommitWanted();
}

void CommitLine::CommitWanted() {
  for (;;) {
    std::unique_lock commit_lock(commit_mu_, std::try_to_lock);
    if (!commit_lock.owns_lock()) return;  // the holder commits it (below)
    for (;;) {
      std::string campaign_id;
      {
        std::lock_guard lock(s_.mu);
        if (wanted_.empty()) break;
        campaign_id = std::move(wanted_.extract(wanted_.begin()).value());
      }
      CommitReadyOf(campaign_id);
    }
    commit_lock.unlock();
    // Whoever asked between the last look and the unlock found commit_mu_
    // taken and left it to this thread.
    std::lock_guard lock(s_.mu);
    if (wanted_.empty()) return;
  }
}

void CommitLine::CommitReadyOf(const std::string& campaign_id) {
  for (;;) {
    // While the disk is full every write fails: the jobs wait in the window.
    if (held_.load(std::memory_order_acquire)) return;
    CampaignRun* run = nullptr;
    std::optional<CheckedJob> job;
    Campaign record;
    {
      std::lock_guard lock(s_.mu);
      auto it = s_.runs.find(campaign_id);
      if (it == s_.runs.end() || !it->second->running()) return;
      run = it->second.get();
      job = run->window.PopNext();
      if (!job) return;
      record = run->record;
    }
    // `run` stays valid: runs are never erased, and only this thread (holding
    // commit_mu_) changes a running campaign's record.
    SampledCommit sampled{campaign_id,
                          job->seq,
                          job->claim_digest,
                          record.counters(),
                          run->candidates_since_new,
                          run->duplicates_since_new};
    const bool on_sample = !job->fully_checked;
    Status s = CommitJob(*run, record, *job);
    std::lock_guard lock(s_.mu);
    if (s.code() == Status::Code::kResourceExhausted) {
      // The disk is full: nothing was written, so the job goes back first in
      // line with the campaign as it was, and waits for Release.
      run->candidates_since_new = sampled.candidates_since_new;
      run->duplicates_since_new = sampled.duplicates_since_new;
      run->window.Rewind(job->seq);
      run->window.Offer(std::move(*job));
      Hold(s);
      return;
    }
    if (s.ok() && on_sample) s_.trust.CommittedOnSample(job->generator, std::move(sampled));
    if (!s.ok()) {
      fmt::print(stderr, "coordinator: commit for campaign {} failed: {}\n", campaign_id,
                 s.ToString());
      record = run->record;
      record.set_state(foundry::v1::CAMPAIGN_STATE_FAILED);
      record.set_message("store write failed: " + s.message());
      record.set_finished_unix_ms(NowUnixMs());
      (void)s_.store->PutCampaign(record);  // best effort; the store is failing
    }
    run->record = std::move(record);
    run->rate.Record(Clock::now(), run->record.counters().stored());
    if (s_.metrics) s_.metrics->SetProgress(campaign_id, run->record.progress());
  }
}

void CommitLine::Hold(const Status& why) {
  // REQUIRES: commit_mu_ and s_.mu held.
  if (held_.load(std::memory_order_relaxed)) return;
  held_reason_ = why.message();
  held_.store(true, std::memory_order_release);
  fmt::print(stderr,
             "coordinator: commits held: {}. They resume by themselves once the store takes "
             "writes again (checked every second)\n",
             why.message());
  if (s_.metrics) s_.metrics->SetDiskFull(true);
}

std::string CommitLine::HeldReasonLocked() const {
  return held_.load(std::memory_order_acquire) ? held_reason_ : std::string();
}

void CommitLine::TryRelease() {
  if (!held_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard commit_lock(commit_mu_);
    if (!s_.store->WriteState().ok()) return;  // still full; the ticker asks again
    std::lock_guard lock(s_.mu);
    held_.store(false, std::memory_order_release);
    held_reason_.clear();
    fmt::print(stderr, "coordinator: the store's disk has room again; commits resumed\n");
    if (s_.metrics) s_.metrics->SetDiskFull(false);
    for (const auto& [id, run] : s_.runs) {
      if (run->running() && run->window.buffered() > 0) wanted_.insert(id);
    }
  }
  CommitWanted();
}

void CommitLine::ApplyJob(CampaignRun& run, Campaign& record, const CheckedJob& job,
                          const storage::NewPuzzles& kept) const {
  const CoordinatorOptions& options = s_.options;
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
  record.set_progress(static_cast<double>(c->stored()) /
                      static_cast<double>(record.spec().count()));
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

Status CommitLine::CommitJob(CampaignRun& run, Campaign& record, CheckedJob& job) {
  const std::string family = record.spec().family();
  // The first new puzzles in index order, up to the campaign's count; the
  // store deduplicates inside the write (one lookup per puzzle, under its
  // commit lock) and the record written with them says what was kept.
  storage::CommitBatch batch;
  batch.puzzles = std::move(job.puzzles);
  batch.campaign.set_id(record.id());  // the member keys need it; `finish` fills in the rest
  const uint64_t max_new = record.spec().count() - record.counters().stored();
  const auto start = Clock::now();
  auto kept = s_.store->CommitNew(batch, max_new,
                                  [&](const storage::NewPuzzles& outcome, Campaign& written) {
                                    ApplyJob(run, record, job, outcome);
                                    written = record;
                                  });
  if (!kept.ok()) {
    job.puzzles = std::move(batch.puzzles);  // untouched: the caller may offer the job again
    return kept.status();
  }
  if (s_.metrics) {
    s_.metrics->StoreWrite(std::chrono::duration<double>(Clock::now() - start).count());
    s_.metrics->Stored(family, kept->added);
    s_.metrics->Duplicates(family, kept->duplicates);
    s_.metrics->Invalid(family, job.invalid);
    const auto counts = s_.store->PuzzleCounts();
    if (auto it = counts.find(family); it != counts.end()) {
      s_.metrics->SetStorePuzzles(family, static_cast<double>(it->second));
    }
  }
  return Status::Ok();
}

}  // namespace foundry::coordinator
