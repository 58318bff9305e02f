#include "coordinator/check_desk.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/candidate_checks.h"
#include "checks/content_digest.h"

namespace foundry::coordinator {
namespace {

// The name a verdict reached by the coordinator itself is recorded under.
constexpr std::string_view kHere = "coordinator";

// Whether the check of job `seq` was taken back from a worker that stalled
// on it (JobDesk::TakeBackStaleLocked): the coordinator does it.
bool TakenBackCheck(const CampaignRun& run, uint64_t seq) {
  auto it = run.taken_back.find(seq);
  return it != run.taken_back.end() && it->second.kind == LeaseKind::kVerify;
}

}  // namespace

std::optional<VerifyWork> CheckDesk::TakeWorkLocked(const std::string& worker,
                                                    Clock::time_point now,
                                                    const std::string& only_campaign) {
  const auto deadline = now + s_.options.lease_ttl;
  for (auto& [id, run_ptr] : s_.runs) {
    CampaignRun& run = *run_ptr;
    if (run.family == nullptr || (!only_campaign.empty() && id != only_campaign)) continue;
    for (auto& [seq, pv] : run.pending) {
      if (!run.running()) break;  // a finished campaign needs no more checks
      if (!pv.lease_id.empty() || pv.generator == worker) continue;
      if (TakenBackCheck(run, seq)) continue;  // from a staller: the coordinator does it
      pv.lease_id =
          s_.leases.Grant(run.record.id(), seq, worker, deadline, LeaseKind::kVerify).lease_id;
      s_.fleet_checked_at = now;
      return CheckWorkOf(run, seq, pv.lease_id);
    }
    for (auto& [seq, audit] : run.audits) {
      if (!audit.lease_id.empty() || audit.suspect == worker) continue;
      audit.lease_id =
          s_.leases.Grant(run.record.id(), seq, worker, deadline, LeaseKind::kAudit).lease_id;
      s_.fleet_checked_at = now;
      return AuditWorkOf(run, seq, audit.lease_id);
    }
  }
  return std::nullopt;
}

bool CheckDesk::HoldsUpCommitLocked(const std::string& worker,
                                    const std::string& only_campaign) const {
  for (const auto& [id, run] : s_.runs) {
    if (!run->running() || run->family == nullptr) continue;
    if (!only_campaign.empty() && id != only_campaign) continue;
    auto it = run->pending.find(run->window.next_seq());
    if (it != run->pending.end() && it->second.lease_id.empty() && it->second.generator != worker &&
        !TakenBackCheck(*run, it->first)) {
      return true;
    }
  }
  return false;
}

Result<foundry::v1::SubmitResponse> CheckDesk::Submit(
    const LeaseRecord& lease, std::vector<foundry::v1::ResultChunk> chunks) {
  std::vector<foundry::v1::PuzzleVerdict> verdicts;
  std::vector<foundry::v1::Regenerated> regenerated;
  for (auto& chunk : chunks) {
    for (auto& v : *chunk.mutable_verdicts()) verdicts.push_back(std::move(v));
    for (auto& r : *chunk.mutable_regenerated()) regenerated.push_back(std::move(r));
  }
  foundry::v1::SubmitResponse resp;
  std::optional<VerifyWork> work;
  {
    std::lock_guard lock(s_.mu);
    s_.leases.Remove(lease.lease_id);
    auto it = s_.runs.find(lease.campaign_id);
    if (it != s_.runs.end()) {
      CampaignRun& run = *it->second;
      if (lease.kind == LeaseKind::kVerify) {
        auto p = run.pending.find(lease.seq);
        if (p != run.pending.end() && p->second.lease_id == lease.lease_id) {
          run.verify_times.Add(Clock::now() - lease.granted);
          work = CheckWorkOf(run, lease.seq, lease.lease_id);
        }
      } else {
        auto a = run.audits.find(lease.seq);
        if (a != run.audits.end() && a->second.lease_id == lease.lease_id) {
          work = AuditWorkOf(run, lease.seq, lease.lease_id);
        }
      }
    }
    if (!work) {
      // Lapsed and taken by another, or the job was settled meanwhile.
      if (s_.metrics) s_.metrics->JobOutcome("repeated");
      resp.set_accepted(false);
      return resp;
    }
    s_.fleet_checked_at = Clock::now();
  }
  Status s = work->kind == LeaseKind::kAudit ? SettleAudit(*work, lease.worker_id, regenerated)
                                             : Settle(std::move(*work), lease.worker_id,
                                                      std::move(verdicts), std::move(regenerated));
  if (!s.ok()) return s;
  resp.set_accepted(true);
  return resp;
}

Status CheckDesk::Settle(VerifyWork work, const std::string& verifier,
                         std::vector<foundry::v1::PuzzleVerdict> verdicts,
                         std::vector<foundry::v1::Regenerated> regenerated) {
  JobAnswers answers{std::move(verdicts), std::move(regenerated)};
  if (s_.metrics) s_.metrics->Regenerated(answers.regenerated.size());
  auto disputes = CompareClaims(*work.job, answers);
  if (!disputes.ok()) {
    std::lock_guard lock(s_.mu);
    QuarantineLocked(verifier,
                     "sent malformed verification answers: " + disputes.status().message());
    return disputes.status();
  }

  // Settle each dispute by computing the truth here, until a liar is found.
  std::set<uint64_t> invalid;
  Ruling guilty;
  if (!disputes->empty()) {
    auto params = work.family->MakeParams(nlohmann::json::parse(work.params_json, nullptr, false));
    if (!params.ok()) return params.status();  // cannot happen: validated at submission
    for (uint64_t index : *disputes) {
      Ruling r = Arbitrate(*work.family, *params, work.seed, index, *work.job, answers);
      if (!r.generator_honest || !r.verifier_honest) {
        guilty = std::move(r);
        break;
      }
      if (r.puzzle_invalid) invalid.insert(index);
    }
  }

  const auto now = Clock::now();
  CheckedJob checked;
  {
    std::lock_guard lock(s_.mu);
    auto it = s_.runs.find(work.campaign_id);
    if (it == s_.runs.end()) return Status::Ok();
    CampaignRun& run = *it->second;
    auto p = run.pending.find(work.seq);
    if (p == run.pending.end() || p->second.lease_id != work.lease_id) return Status::Ok();
    if (s_.metrics) s_.metrics->Check("verify", disputes->empty() ? "agreed" : "disputed");
    if (!guilty.generator_honest) {
      QuarantineLocked(work.generator, fmt::format("job {} of campaign {}: {}", work.seq,
                                                   work.campaign_id, guilty.evidence));
    }
    if (!guilty.verifier_honest && verifier != kHere) {
      QuarantineLocked(verifier, fmt::format("verifying job {} of campaign {}: {}", work.seq,
                                             work.campaign_id, guilty.evidence));
    }
    if (!guilty.generator_honest || !guilty.verifier_honest) {
      // The generator's job was dropped by its quarantine; a lying
      // verifier's job waits for another verifier.
      auto again = run.pending.find(work.seq);
      if (again != run.pending.end()) again->second.lease_id.clear();
      return Status::Ok();
    }
    s_.trust.Agreed(work.generator, work.full, work.end - work.first, work.stats.accepted(), now);
    if (verifier != kHere) s_.trust.VerifiedForOthers(verifier);
    run.pending.erase(p);
    if (!run.running()) return Status::Ok();

    // The agreed claims become the stored records, their strings moved.
    checked.seq = work.seq;
    checked.stats = work.stats;
    checked.generator = work.generator;
    checked.fully_checked = work.full;
    checked.claim_digest = work.claim_digest;
    checked.invalid = invalid.size();
    const int64_t created = NowUnixMs();
    checked.puzzles.reserve(work.job->claims.size());
    for (auto& claim : work.job->claims) {
      if (invalid.count(claim.index()) != 0) continue;
      foundry::v1::Puzzle& rec = checked.puzzles.emplace_back();
      rec.set_id(std::move(*claim.mutable_id()));
      rec.set_family(run.record.spec().family());
      rec.set_campaign_id(run.record.id());
      rec.set_seed(work.seed);
      rec.set_index(claim.index());
      rec.set_params_json(work.params_json);
      *rec.mutable_difficulty() = std::move(*claim.mutable_difficulty());
      rec.set_puzzle_json(std::move(*claim.mutable_puzzle_json()));
      rec.set_solution_json(std::move(*claim.mutable_solution_json()));
      rec.set_created_unix_ms(created);
    }
    if (!invalid.empty()) {
      fmt::print(stderr,
                 "coordinator: {} puzzles of job {} of campaign {} fail Verify although generated "
                 "as the stream says (a family bug); not stored\n",
                 invalid.size(), work.seq, work.campaign_id);
    }
    if (!run.window.Offer(std::move(checked))) return Status::Ok();
  }
  commits_.Ready(work.campaign_id);
  return Status::Ok();
}

Status CheckDesk::SettleAudit(const VerifyWork& work, const std::string& auditor,
                              const std::vector<foundry::v1::Regenerated>& regenerated) {
  if (s_.metrics) s_.metrics->Regenerated(regenerated.size());
  bool shaped = regenerated.size() == work.end - work.first;
  for (size_t i = 0; shaped && i < regenerated.size(); ++i)
    shaped = regenerated[i].index() == work.first + i;
  if (!shaped) {
    std::lock_guard lock(s_.mu);
    QuarantineLocked(auditor, "sent an audit that does not cover the job's range");
    auto it = s_.runs.find(work.campaign_id);
    if (it != s_.runs.end()) {
      auto a = it->second->audits.find(work.seq);
      if (a != it->second->audits.end() && a->second.lease_id == work.lease_id)
        a->second.lease_id.clear();
    }
    return Status::InvalidArgument("an audit must re-generate every index of the job, in order");
  }
  checks::ClaimDigest digest;
  for (const auto& r : regenerated) digest.Add(r);
  const bool mismatch = digest.value() != work.audit.claim_digest;
  {
    std::lock_guard lock(s_.mu);
    auto it = s_.runs.find(work.campaign_id);
    if (it == s_.runs.end()) return Status::Ok();
    auto a = it->second->audits.find(work.seq);
    if (a == it->second->audits.end() || a->second.lease_id != work.lease_id) return Status::Ok();
    it->second->audits.erase(a);
    s_.trust.AddAuditsPending(work.suspect, -1);
    if (s_.metrics) s_.metrics->Check("audit", mismatch ? "mismatch" : "agreed");
  }
  if (!mismatch) return Status::Ok();
  fmt::print(stderr,
             "coordinator: audit of job {} of campaign {} (generated by quarantined worker '{}') "
             "does not match what was committed; rolling the campaign back to that job\n",
             work.seq, work.campaign_id, work.suspect);
  CommitLine::Exclusive commit_lock(commits_);
  return RollBack(work.campaign_id, work.seq, work.audit);
}

void CheckDesk::VerifyHere(VerifyWork work) {
  auto params = work.family->MakeParams(nlohmann::json::parse(work.params_json, nullptr, false));
  if (!params.ok()) return;
  std::vector<foundry::v1::Regenerated> regenerated;
  if (work.kind == LeaseKind::kAudit) {
    for (uint64_t i = work.first; i < work.end; ++i) {
      regenerated.push_back(checks::Regenerate(*work.family, *params, work.seed, i));
    }
    (void)SettleAudit(work, std::string(kHere), regenerated);
    return;
  }
  std::vector<foundry::v1::PuzzleVerdict> verdicts;
  verdicts.reserve(work.job->claims.size());
  for (const auto& claim : work.job->claims)
    verdicts.push_back(checks::VerifyPuzzle(*work.family, claim));
  for (uint64_t i : work.job->regenerate) {
    regenerated.push_back(checks::Regenerate(*work.family, *params, work.seed, i));
  }
  (void)Settle(std::move(work), std::string(kHere), std::move(verdicts), std::move(regenerated));
}

std::vector<VerifyWork> CheckDesk::TakeStaleWorkLocked(Clock::time_point now) {
  std::vector<VerifyWork> out;
  // A check whose every possible taker is gone (the other workers stopped,
  // were cut off or handed their leases back) would hold the campaign's
  // commits up for verify_wait: done here at once. Only possible while at
  // most one worker is alive, so the usual case costs one count.
  const auto alive_since = now - s_.options.lease_ttl;
  const bool orphans_possible = s_.trust.AliveCount(alive_since) <= 1;
  auto orphaned = [&](const std::string& owner) {
    return orphans_possible && !s_.trust.AnotherWorkerAlive(owner, alive_since);
  };
  // The fleet is checking, only behind (a family whose Verify costs more
  // than its generation fills the window with jobs to check): it gets there.
  // Taking its checks here would make the coordinator the fleet's verifier
  // (docs/scale.md).
  const bool fleet_idle = now - s_.fleet_checked_at >= s_.options.verify_wait;
  // A check taken back from a worker that held it while the commit waited
  // (JobDesk::TakeBackStaleLocked) is done here at once: another worker
  // might stall as well, and it is one job.
  for (auto& [id, run_ptr] : s_.runs) {
    CampaignRun& run = *run_ptr;
    if (run.family == nullptr || !run.running()) continue;
    for (const auto& [seq, back] : run.taken_back) {
      if (back.kind != LeaseKind::kVerify) continue;
      auto p = run.pending.find(seq);
      if (p == run.pending.end() || !p->second.lease_id.empty()) continue;
      p->second.lease_id = fmt::format("here-{}-{}", id, seq);
      out.push_back(CheckWorkOf(run, seq, p->second.lease_id));
    }
  }
  if (!fleet_idle && !orphans_possible) return out;
  for (auto& [id, run_ptr] : s_.runs) {
    CampaignRun& run = *run_ptr;
    if (run.family == nullptr) continue;
    for (auto& [seq, pv] : run.pending) {
      if (!run.running()) break;
      if (!pv.lease_id.empty()) continue;
      const bool stale = fleet_idle && now - pv.queued >= s_.options.verify_wait;
      if (!stale && !orphaned(pv.generator)) continue;
      pv.lease_id = fmt::format("here-{}-{}", id, seq);
      out.push_back(CheckWorkOf(run, seq, pv.lease_id));
    }
    for (auto& [seq, audit] : run.audits) {
      if (!audit.lease_id.empty()) continue;
      const bool stale = fleet_idle && now - audit.queued >= s_.options.verify_wait;
      if (!stale && !orphaned(audit.suspect)) continue;
      audit.lease_id = fmt::format("here-audit-{}-{}", id, seq);
      out.push_back(AuditWorkOf(run, seq, audit.lease_id));
    }
  }
  return out;
}

void CheckDesk::QuarantineLocked(const std::string& worker, const std::string& evidence) {
  if (worker == kHere) return;
  const bool first_time = !s_.trust.Quarantined(worker);
  std::vector<SampledCommit> commits = s_.trust.Quarantine(worker, evidence);
  if (first_time) {
    fmt::print(stderr, "coordinator: worker '{}' QUARANTINED: {}\n", worker, evidence);
    if (s_.metrics) s_.metrics->Quarantined(static_cast<double>(s_.trust.QuarantinedCount()));
  }
  const auto now = Clock::now();
  // Its leases: generation jobs go back to the queue, checks to other workers.
  for (const LeaseRecord& l : s_.leases.RemoveWorker(worker)) s_.ReturnLeaseLocked(l);
  for (auto& [id, run_ptr] : s_.runs) {
    CampaignRun& run = *run_ptr;
    // Its jobs not yet committed, unless every index of them was checked.
    for (auto p = run.pending.begin(); p != run.pending.end();) {
      if (p->second.generator == worker) {
        run.requeued.insert(p->first);
        p = run.pending.erase(p);
      } else {
        ++p;
      }
    }
    std::vector<uint64_t> drop;
    for (const auto& [seq, job] : run.window.buffered_jobs()) {
      if (job.generator == worker && !job.fully_checked) drop.push_back(seq);
    }
    for (uint64_t seq : drop) {
      run.window.Drop(seq);
      run.requeued.insert(seq);
    }
  }
  // Its commits that rested on a sample: re-generated in full by others.
  for (SampledCommit& c : commits) {
    auto it = s_.runs.find(c.campaign_id);
    if (it == s_.runs.end() || c.seq >= it->second->window.next_seq()) continue;
    if (it->second->audits.count(c.seq) != 0) continue;
    const uint64_t seq = c.seq;
    it->second->audits.emplace(seq, PendingAudit{std::move(c), worker, "", now});
    s_.trust.AddAuditsPending(worker, 1);
  }
}

Status CheckDesk::RollBack(const std::string& campaign_id, uint64_t seq,
                           const SampledCommit& restore) {
  foundry::v1::Campaign record;
  uint64_t old_next = 0;
  uint64_t job_size = 1;
  {
    std::lock_guard lock(s_.mu);
    auto it = s_.runs.find(campaign_id);
    if (it == s_.runs.end()) return Status::Ok();
    CampaignRun& run = *it->second;
    old_next = run.window.next_seq();
    if (seq >= old_next) return Status::Ok();  // already undone
    record = run.record;
    job_size = run.job_size();
  }
  const uint64_t undone = old_next - seq;
  auto* c = record.mutable_counters();
  const uint64_t rolled_back = c->rolled_back_jobs() + undone;
  *c = restore.counters_before;
  c->set_rolled_back_jobs(rolled_back);
  record.set_next_index(seq * job_size);
  record.set_progress(static_cast<double>(c->stored()) /
                      static_cast<double>(record.spec().count()));
  record.set_updated_unix_ms(NowUnixMs());
  const auto state = record.state();
  if (state == foundry::v1::CAMPAIGN_STATE_DONE || state == foundry::v1::CAMPAIGN_STATE_EXHAUSTED ||
      state == foundry::v1::CAMPAIGN_STATE_RUNNING) {
    record.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
    record.set_finished_unix_ms(0);
    record.set_message(fmt::format(
        "repairing: {} committed jobs from candidate {} on run again (a worker was quarantined)",
        undone, seq * job_size));
  }
  auto deleted = s_.store->RollbackCampaign(record, seq * job_size);
  if (!deleted.ok()) {
    fmt::print(stderr, "coordinator: rollback of campaign {} failed: {}\n", campaign_id,
               deleted.status().ToString());
    return deleted.status();
  }
  fmt::print(stderr,
             "coordinator: campaign {} rolled back to candidate {}: {} puzzles deleted, {} jobs to "
             "run again\n",
             campaign_id, seq * job_size, *deleted, undone);
  std::lock_guard lock(s_.mu);
  CampaignRun& run = *s_.runs.at(campaign_id);
  run.record = record;
  run.window.Rewind(seq);
  run.candidates_since_new = restore.candidates_since_new;
  run.duplicates_since_new = restore.duplicates_since_new;
  if (record.state() == foundry::v1::CAMPAIGN_STATE_RUNNING) {
    for (uint64_t s = seq; s < old_next; ++s) {
      if (!run.Delivered(s)) run.requeued.insert(s);
    }
  }
  for (auto a = run.audits.lower_bound(seq); a != run.audits.end();) {
    s_.trust.AddAuditsPending(a->second.suspect, -1);
    a = run.audits.erase(a);
  }
  if (s_.metrics) {
    s_.metrics->RolledBack(undone);
    s_.metrics->SetProgress(campaign_id, record.progress());
  }
  return Status::Ok();
}

foundry::v1::ListWorkersResponse CheckDesk::ListWorkers() {
  foundry::v1::ListWorkersResponse resp;
  std::lock_guard lock(s_.mu);
  for (auto& w : s_.trust.List(Clock::now() - std::chrono::minutes(10), s_.leases.LiveByWorker())) {
    *resp.add_workers() = std::move(w);
  }
  resp.set_generation_fingerprint(s_.fingerprint);
  return resp;
}

size_t CheckDesk::outstanding() {
  std::lock_guard lock(s_.mu);
  size_t n = 0;
  for (const auto& [id, run] : s_.runs) n += run->pending.size() + run->audits.size();
  return n;
}

}  // namespace foundry::coordinator
