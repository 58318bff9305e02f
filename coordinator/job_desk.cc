#include "coordinator/job_desk.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "checks/content_digest.h"
#include "common/quote.h"

namespace foundry::coordinator {
namespace {

// A worker counts as alive this long after it was last heard from.
constexpr std::chrono::seconds kWorkerSeenWindow{30};

// Worker ids and builds are kept per worker and shown in ListWorkers and the
// console; host:pid, a pod's or a Slurm task's name, a version all fit. A
// Lease's campaign id and fingerprint are echoed in its errors; theirs are
// far shorter.
constexpr size_t kMaxField = 256;

// A text field of a worker's request, at most kMaxField bytes.
Status CheckLength(std::string_view field, const std::string& value) {
  if (value.size() <= kMaxField) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{} must be at most {} bytes, got {}", field, kMaxField, value.size()));
}

Status CheckWorkerId(const std::string& worker_id) {
  if (worker_id.empty()) return Status::InvalidArgument("worker_id is required");
  return CheckLength("worker_id", worker_id);
}

// Whether the request's process may act as its worker id (WorkerTrust::Claim).
template <typename Request>
Status ClaimLocked(CoordinatorState& s, const Request& request, Clock::time_point now) {
  return s.trust.Claim(request.worker_id(), request.worker_key(), now, s.options.lease_ttl);
}

}  // namespace

std::optional<uint64_t> JobDesk::NextSeqLocked(CampaignRun& run, const std::string& worker) {
  for (auto next = run.requeued.begin(); next != run.requeued.end();) {
    const uint64_t seq = *next;
    if (auto back = run.taken_back.find(seq);
        back != run.taken_back.end() && back->second.kind == LeaseKind::kGenerate &&
        back->second.worker == worker && s_.alive_workers > 1) {
      ++next;  // taken back from this worker: another one gets it
      continue;
    }
    next = run.requeued.erase(next);
    auto released = run.released_at.find(seq);
    if (released != run.released_at.end()) {
      if (s_.metrics && !run.Delivered(seq)) {
        s_.metrics->ReleasedJobLeasedAgain(
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
  const double yield_per_job = c.candidates() == 0 ? static_cast<double>(run.job_size())
                                                   : static_cast<double>(run.job_size()) *
                                                         static_cast<double>(c.stored()) /
                                                         static_cast<double>(c.candidates());
  double needed = static_cast<double>(s_.options.max_jobs_ahead);
  if (yield_per_job > 0) needed = std::ceil(remaining / yield_per_job * 1.25) + 1;
  const uint64_t allowed =
      std::clamp<uint64_t>(static_cast<uint64_t>(needed), 1, s_.options.max_jobs_ahead);
  while (run.Delivered(run.next_issue)) ++run.next_issue;  // after a rollback
  if (run.next_issue - run.window.next_seq() >= allowed) return std::nullopt;
  return run.next_issue++;
}

Result<foundry::v1::LeaseResponse> JobDesk::Lease(const foundry::v1::LeaseRequest& request) {
  FOUNDRY_RETURN_IF_ERROR(CheckWorkerId(request.worker_id()));
  FOUNDRY_RETURN_IF_ERROR(CheckLength("build", request.build()));
  FOUNDRY_RETURN_IF_ERROR(CheckLength("campaign_id", request.campaign_id()));
  FOUNDRY_RETURN_IF_ERROR(CheckLength("generation_fingerprint", request.generation_fingerprint()));
  if (request.generation_fingerprint() != s_.fingerprint) {
    return Status::FailedPrecondition(fmt::format(
        "worker '{}' has generation fingerprint '{}' (build '{}'), this coordinator has '{}': "
        "the two could generate different puzzles for the same candidates; run workers of the "
        "coordinator's build",
        QuoteInput(request.worker_id()), QuoteInput(request.generation_fingerprint()),
        QuoteInput(request.build()), s_.fingerprint));
  }
  const auto now = Clock::now();
  std::unique_lock lock(s_.mu);
  if (s_.trust.Quarantined(request.worker_id())) {
    return Status::PermissionDenied(fmt::format("worker '{}' is quarantined: {}",
                                                request.worker_id(),
                                                s_.trust.Evidence(request.worker_id())));
  }
  FOUNDRY_RETURN_IF_ERROR(ClaimLocked(s_, request, now));
  s_.trust.Seen(request.worker_id(), request.threads(), request.build(), now);
  TickLocked(now, /*refresh=*/false);
  // A worker of one campaign (a batch job's array task) takes only its work
  // and learns when it has ended, so that it can exit.
  const std::string& only = request.campaign_id();
  if (!only.empty()) {
    auto it = s_.runs.find(only);
    if (it == s_.runs.end()) {
      return Status::NotFound(
          fmt::format("no campaign '{}' on this coordinator", QuoteInput(only)));
    }
    if (!it->second->running()) {
      foundry::v1::LeaseResponse ended;
      ended.set_campaign_ended(true);
      return ended;
    }
  }

  auto verify = [&]() -> std::optional<foundry::v1::LeaseResponse> {
    auto work = checks_.TakeWorkLocked(request.worker_id(), now, only);
    if (!work) return std::nullopt;
    if (s_.metrics) s_.metrics->SetJobsInFlight(static_cast<double>(s_.leases.live()));
    lock.unlock();  // the job's copy of the claims is made outside the lock
    foundry::v1::LeaseResponse resp;
    *resp.mutable_job() = VerifyJobFor(*work);
    resp.mutable_job()->set_lease_deadline_unix_ms(ToUnixMs(now + s_.options.lease_ttl));
    resp.mutable_job()->set_heartbeat_interval_ms(
        static_cast<uint32_t>(s_.options.heartbeat_interval.count()));
    return resp;
  };
  // Verification first (it holds up commits), unless this worker must
  // generate so that another has something to check.
  const bool generate_first = GenerateFirstLocked(request.worker_id(), only);
  if (!generate_first) {
    if (auto resp = verify()) return std::move(*resp);
  }

  // Weighted fair share: lowest pass first (see CampaignRun::pass), then the
  // oldest campaign.
  std::vector<CampaignRun*> order;
  for (auto& [id, run] : s_.runs) {
    if (!only.empty() && id != only) continue;
    if (run->running() && run->family != nullptr) order.push_back(run.get());
  }
  std::sort(order.begin(), order.end(), [](const CampaignRun* a, const CampaignRun* b) {
    if (a->pass != b->pass) return a->pass < b->pass;
    return a->record.created_unix_ms() < b->record.created_unix_ms();
  });

  foundry::v1::LeaseResponse resp;
  for (CampaignRun* run : order) {
    auto seq = NextSeqLocked(*run, request.worker_id());
    if (!seq) continue;
    run->pass += static_cast<double>(run->job_size()) / run->weight();
    const auto deadline = now + s_.options.lease_ttl;
    const auto& lease = s_.leases.Grant(run->record.id(), *seq, request.worker_id(), deadline);
    auto* job = resp.mutable_job();
    job->set_lease_id(lease.lease_id);
    job->set_campaign_id(run->record.id());
    job->set_family(run->record.spec().family());
    job->set_params_json(run->record.params_json());
    job->set_seed(run->record.spec().seed());
    job->set_first_index(*seq * run->job_size());
    job->set_end_index((*seq + 1) * run->job_size());
    job->set_lease_deadline_unix_ms(ToUnixMs(deadline));
    job->set_heartbeat_interval_ms(static_cast<uint32_t>(s_.options.heartbeat_interval.count()));
    job->set_kind(foundry::v1::JOB_KIND_GENERATE);
    if (s_.metrics) s_.metrics->SetJobsInFlight(static_cast<double>(s_.leases.live()));
    return resp;
  }
  if (generate_first) {
    if (auto checks = verify()) return std::move(*checks);  // nothing to generate: check after all
  }
  resp.set_retry_after_ms(IdleRetryMsLocked(request.worker_id(), now));
  return resp;
}

bool JobDesk::GenerateFirstLocked(const std::string& worker,
                                  const std::string& only_campaign) const {
  // The job the commit cursor waits on is checked first whatever the counts
  // below say: they count a generator's unchecked jobs as its load, so two
  // workers that check each other (`foundry run`) could otherwise settle
  // with one always generating and the other's jobs never checked, every
  // commit held to the end of the campaign (docs/scale.md, "Checks that
  // never came").
  if (checks_.HoldsUpCommitLocked(worker, only_campaign)) return false;
  // Jobs of each generator waiting for a checker or being checked.
  std::unordered_map<std::string, uint32_t> waiting;
  for (const auto& [id, run] : s_.runs) {
    if (!run->running()) continue;
    for (const auto& [seq, pv] : run->pending) ++waiting[pv.generator];
  }
  auto outstanding = [&](const std::string& w) {
    auto it = waiting.find(w);
    return s_.leases.LiveGenerating(w) + (it == waiting.end() ? 0 : it->second);
  };
  // Two more, not one: with one, two lease loops that check each other's
  // jobs (`foundry run`) out-generate each other, checks lag and the
  // campaign ends with more jobs generated for nothing (docs/scale.md); with
  // two the roles still even out.
  const uint32_t mine = outstanding(worker);
  for (const auto& [generator, n] : waiting) {
    if (generator != worker && mine + 2 <= outstanding(generator)) return true;
  }
  return false;
}

Result<foundry::v1::HeartbeatResponse> JobDesk::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  const auto now = Clock::now();
  std::lock_guard lock(s_.mu);
  LeaseRecord* lease = s_.leases.Find(request.lease_id());
  if (lease == nullptr) {
    return Status::NotFound(fmt::format("no lease '{}' (the coordinator may have restarted)",
                                        QuoteInput(request.lease_id())));
  }
  // Only the process that holds the id keeps it alive, through a lease the
  // id holds: a heartbeat makes no worker record (a Lease does, bounded).
  if (lease->worker_id == request.worker_id() && !s_.trust.Quarantined(request.worker_id()) &&
      ClaimLocked(s_, request, now).ok()) {
    s_.trust.Seen(request.worker_id(), 0, "", now);
  }
  foundry::v1::HeartbeatResponse resp;
  const bool wanted = !lease->lapsed && s_.StillWantedLocked(*lease);
  resp.set_keep_going(wanted);
  if (wanted) lease->deadline = now + s_.options.lease_ttl;
  if (wanted && lease->kind != LeaseKind::kGenerate) s_.fleet_checked_at = now;
  resp.set_lease_deadline_unix_ms(ToUnixMs(lease->deadline));
  return resp;
}

Result<foundry::v1::SubmitResponse> JobDesk::SubmitResults(
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
    std::lock_guard lock(s_.mu);
    LeaseRecord* found = s_.leases.Find(lease_id);
    if (found == nullptr) {
      return Status::NotFound(
          fmt::format("no lease '{}' (unknown or long expired)", QuoteInput(lease_id)));
    }
    lease = *found;
    if (s_.trust.Quarantined(lease.worker_id)) {
      s_.leases.Remove(lease_id);
      return Status::PermissionDenied(fmt::format("worker '{}' is quarantined: {}", lease.worker_id,
                                                  s_.trust.Evidence(lease.worker_id)));
    }
  }
  if (lease.kind == LeaseKind::kGenerate) return SubmitGeneration(lease, std::move(chunks));
  return checks_.Submit(lease, std::move(chunks));
}

Result<SubmissionBound> JobDesk::SubmissionBoundFor(const std::string& lease_id) {
  std::lock_guard lock(s_.mu);
  const LeaseRecord* lease = s_.leases.Find(lease_id);
  if (lease == nullptr) {
    return Status::NotFound(
        fmt::format("no lease '{}' (unknown or long expired)", QuoteInput(lease_id)));
  }
  auto it = s_.runs.find(lease->campaign_id);
  const uint64_t job_size = it == s_.runs.end() ? 1 : it->second->job_size();
  // A check answers every puzzle of its job and re-generates some of its
  // indices: at most twice the job's candidates.
  const uint64_t items = lease->kind == LeaseKind::kGenerate ? job_size : 2 * job_size;
  return SubmissionBound{.chunks = static_cast<size_t>(items + 1),
                         .bytes = (size_t{16} << 20) + static_cast<size_t>(items) * (256 << 10)};
}

Result<foundry::v1::SubmitResponse> JobDesk::SubmitGeneration(
    const LeaseRecord& lease, std::vector<foundry::v1::ResultChunk> chunks) {
  foundry::v1::SubmitResponse resp;
  uint64_t first = 0, end = 0;
  puzzles::Goal goal;
  {
    std::lock_guard lock(s_.mu);
    auto it = s_.runs.find(lease.campaign_id);
    if (it == s_.runs.end() || !it->second->running() || it->second->Delivered(lease.seq)) {
      s_.leases.Remove(lease.lease_id);
      if (s_.metrics) s_.metrics->JobOutcome("repeated");
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
  if (problem.empty() &&
      (stats.candidates() != end - first || stats.accepted() != claims->claims.size())) {
    problem = fmt::format(
        "job stats disagree with the job: {} candidates and {} accepted reported, "
        "expected {} candidates and {} accepted puzzles sent",
        stats.candidates(), stats.accepted(), end - first, claims->claims.size());
  }
  const auto now = Clock::now();
  std::optional<VerifyWork> here;
  {
    std::lock_guard lock(s_.mu);
    s_.leases.Remove(lease.lease_id);
    if (!problem.empty()) {
      checks_.QuarantineLocked(lease.worker_id, "sent a malformed generation job: " + problem);
      auto it = s_.runs.find(lease.campaign_id);
      if (it != s_.runs.end() && it->second->running() && !it->second->Delivered(lease.seq)) {
        it->second->requeued.insert(lease.seq);  // another worker runs it
      }
      if (s_.metrics) s_.metrics->JobOutcome("refused");
      return Status::InvalidArgument(problem);
    }
    auto it = s_.runs.find(lease.campaign_id);
    if (it == s_.runs.end() || !it->second->running() || it->second->Delivered(lease.seq)) {
      if (s_.metrics) s_.metrics->JobOutcome("repeated");
      resp.set_accepted(false);
      return resp;
    }
    CampaignRun& run = *it->second;
    run.generate_times.Add(now - lease.granted);
    PendingVerify pv;
    pv.generator = lease.worker_id;
    claims->regenerate = s_.trust.SampleFor(lease.worker_id, first, end, &pv.full);
    if (!pv.full && s_.trust.options().spot_checks) {
      // Only a job committed on a sample may be audited later.
      checks::ClaimDigest digest;
      for (const auto& c : claims->claims) digest.Add(c);
      pv.claim_digest = digest.value();
    }
    pv.job = std::move(claims);
    pv.stats = stats;
    pv.queued = now;
    const bool alone = !s_.trust.AnotherWorkerAlive(lease.worker_id, now - s_.options.lease_ttl);
    // Nobody else to verify it: the coordinator does.
    if (alone) pv.lease_id = fmt::format("here-{}", lease.lease_id);
    run.pending.emplace(lease.seq, std::move(pv));
    if (alone) here = CheckWorkOf(run, lease.seq, run.pending.at(lease.seq).lease_id);
    if (s_.metrics) {
      s_.metrics->JobOutcome("submitted");
      s_.metrics->SetJobsInFlight(static_cast<double>(s_.leases.live()));
    }
  }
  if (here) checks_.VerifyHere(std::move(*here));
  resp.set_accepted(true);
  return resp;
}

Result<foundry::v1::ReleaseResponse> JobDesk::ReleaseLeases(
    const foundry::v1::ReleaseRequest& request) {
  FOUNDRY_RETURN_IF_ERROR(CheckWorkerId(request.worker_id()));
  foundry::v1::ReleaseResponse resp;
  std::lock_guard lock(s_.mu);
  if (request.worker_stopping() && ClaimLocked(s_, request, Clock::now()).ok()) {
    s_.trust.Left(request.worker_id());  // only the process that holds the id may say so
  }
  for (const std::string& id : request.lease_ids()) {
    const LeaseRecord* lease = s_.leases.Find(id);
    // Lease ids are unguessable, but a worker still may not free another's.
    if (lease == nullptr || lease->lapsed || lease->worker_id != request.worker_id()) continue;
    const LeaseRecord released = *lease;
    s_.leases.Remove(id);
    const bool wanted = s_.StillWantedLocked(released);
    s_.ReturnLeaseLocked(released);
    if (wanted && released.kind == LeaseKind::kGenerate) {
      s_.runs.at(released.campaign_id)->released_at[released.seq] = Clock::now();
    }
    resp.set_released(resp.released() + 1);
    if (s_.metrics && wanted) s_.metrics->LeaseReleased();
  }
  if (s_.metrics) s_.metrics->SetJobsInFlight(static_cast<double>(s_.leases.live()));
  return resp;
}

void JobDesk::TakeBackStaleLocked(Clock::time_point now) {
  for (auto& [id, run_ptr] : s_.runs) {
    CampaignRun& run = *run_ptr;
    if (!run.running()) continue;
    const uint64_t seq = run.window.next_seq();
    // Entries behind the cursor are settled.
    run.taken_back.erase(run.taken_back.begin(), run.taken_back.lower_bound(seq));
    LeaseRecord* lease = nullptr;
    const JobTimes* times = &run.generate_times;
    if (auto p = run.pending.find(seq); p != run.pending.end()) {
      if (p->second.lease_id.empty()) continue;
      lease = s_.leases.Find(p->second.lease_id);
      times = &run.verify_times;
    } else if (!run.window.Holds(seq)) {
      lease = s_.leases.NewestLive(id, seq, LeaseKind::kGenerate);
    }
    // Until a few jobs of the kind are done nobody knows what long is: the
    // first jobs of a heavy family may all outlast any fixed limit.
    if (lease == nullptr || lease->lapsed || times->count() < 3) continue;
    const auto held = now - lease->granted;
    if (held <= std::max<Clock::duration>(4 * s_.options.lease_ttl, 4 * times->Median())) continue;
    fmt::print(stderr,
               "coordinator: {} job {} of campaign {} taken back from worker '{}': held {:.1f} s "
               "while the campaign's commits wait on it (its recent jobs took {:.1f} s)\n",
               lease->kind == LeaseKind::kGenerate ? "generation" : "verification", seq, id,
               lease->worker_id, std::chrono::duration<double>(held).count(),
               std::chrono::duration<double>(times->Median()).count());
    run.taken_back[seq] = {lease->worker_id, lease->kind};
    lease->taken_back = true;
    lease->deadline = now - Clock::duration(1);  // lapses in this tick
    if (s_.metrics) s_.metrics->LeaseTakenBack();
  }
}

void JobDesk::TickLocked(Clock::time_point now, bool refresh) {
  if (refresh) TakeBackStaleLocked(now);  // the ticker's work, not every Lease's
  for (const LeaseRecord& lapsed : s_.leases.LapseDue(now, now - 20 * s_.options.lease_ttl)) {
    // Only a lapse that loses wanted work counts: a lease whose job was done
    // elsewhere or whose campaign ended was let go (its heartbeat said stop),
    // and counting it made every campaign's end look like failing workers.
    if (s_.metrics && !lapsed.taken_back && s_.StillWantedLocked(lapsed)) {
      s_.metrics->LeaseLapsed();
    }
    s_.ReturnLeaseLocked(lapsed);
  }
  if (!refresh) return;
  s_.trust.ForgetQuiet(now);
  s_.alive_workers = s_.trust.AliveCount(now - kWorkerSeenWindow);
  if (s_.metrics) {
    s_.metrics->SetJobsInFlight(static_cast<double>(s_.leases.live()));
    s_.metrics->SetWorkers(static_cast<double>(s_.alive_workers));
  }
}

uint32_t JobDesk::IdleRetryMsLocked(const std::string& worker_id, Clock::time_point now) const {
  const uint64_t base = std::clamp<uint64_t>(2 * s_.alive_workers, 200, 2000);
  // Jitter of +-25% from the worker and the time: no shared RNG state.
  const uint64_t h = std::hash<std::string>{}(worker_id) ^
                     static_cast<uint64_t>(now.time_since_epoch().count()) * 0x9E3779B97F4A7C15ULL;
  return static_cast<uint32_t>(base * 3 / 4 + (h >> 11) % (base / 2 + 1));
}

}  // namespace foundry::coordinator
