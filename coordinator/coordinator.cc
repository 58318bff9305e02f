#include "coordinator/coordinator.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "coordinator/campaign_run.h"
#include "coordinator/campaign_spec.h"
#include "puzzles/fingerprint.h"
#include "puzzles/registry.h"
#include "puzzles/rng.h"

namespace foundry::coordinator {
namespace {

using foundry::v1::Campaign;
using foundry::v1::CampaignState;

constexpr uint32_t kMaxJobSize = 1'000'000;
constexpr std::chrono::seconds kWorkerSeenWindow{30};

}  // namespace

Coordinator::Coordinator(storage::Store* store, CoordinatorOptions options,
                         CoordinatorMetrics* metrics)
    : store_(store),
      options_(options),
      metrics_(metrics),
      leases_(Entropy()),
      trust_(options.trust),
      fingerprint_(options.generation_fingerprint.empty() ? puzzles::GenerationFingerprint()
                                                          : options.generation_fingerprint) {}

Coordinator::~Coordinator() {
  {
    std::lock_guard lock(ticker_mu_);
    stopping_ = true;
  }
  ticker_cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

Result<std::unique_ptr<Coordinator>> Coordinator::Open(storage::Store* store,
                                                       CoordinatorOptions options,
                                                       CoordinatorMetrics* metrics) {
  std::unique_ptr<Coordinator> c(new Coordinator(store, options, metrics));
  auto campaigns = store->LoadCampaigns();
  if (!campaigns.ok()) return campaigns.status();
  for (auto& record : *campaigns) {
    auto family = puzzles::FindFamily(record.spec().family());
    if (record.state() == foundry::v1::CAMPAIGN_STATE_RUNNING && !family.ok()) {
      record.set_state(foundry::v1::CAMPAIGN_STATE_FAILED);
      record.set_message(family.status().message() + " in this build");
      FOUNDRY_RETURN_IF_ERROR(store->PutCampaign(record));
    }
    c->AddRun(std::move(record), family.ok() ? *family : nullptr);
  }
  if (metrics) {
    for (const auto& [family, n] : store->PuzzleCounts()) {
      metrics->SetStorePuzzles(family, static_cast<double>(n));
    }
  }
  c->ticker_ = std::thread([raw = c.get()] { raw->TickerLoop(); });
  return c;
}

void Coordinator::AddRun(Campaign record, const puzzles::Family* family) {
  auto run = std::make_unique<CampaignRun>();
  run->family = family;
  nlohmann::json params = nlohmann::json::parse(record.params_json(), nullptr, false);
  if (auto goal = puzzles::TakeGoal(params); goal.ok()) run->goal = *goal;
  const uint64_t job_size = std::max<uint64_t>(1, record.spec().job_size());
  run->window = CommitWindow(record.next_index() / job_size);
  run->next_issue = run->window.next_seq();
  run->record = std::move(record);
  if (metrics_) metrics_->SetProgress(run->record.id(), run->record.progress());
  std::lock_guard lock(mu_);
  // A newcomer starts level with the campaigns already running, so that it
  // neither starves them nor waits behind their history.
  bool first = true;
  for (const auto& [id, other] : runs_) {
    if (!other->running()) continue;
    run->pass = first ? other->pass : std::min(run->pass, other->pass);
    first = false;
  }
  runs_[run->record.id()] = std::move(run);
}

void Coordinator::TickerLoop() {
  std::unique_lock lock(ticker_mu_);
  while (!ticker_cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; })) {
    std::vector<VerifyWork> stale;
    {
      std::lock_guard state_lock(mu_);
      const auto now = Clock::now();
      TickLocked(now, /*refresh=*/true);
      stale = TakeStaleVerifyWorkLocked(now);
    }
    // Checks no worker took in time: done here, so that commits go on.
    for (VerifyWork& work : stale) VerifyHere(std::move(work));
  }
}

void Coordinator::TickLocked(Clock::time_point now, bool refresh) {
  for (const LeaseRecord& lapsed : leases_.LapseDue(now, now - 20 * options_.lease_ttl)) {
    // Only a lapse that loses wanted work counts: a lease whose job was done
    // elsewhere or whose campaign ended was let go (its heartbeat said stop),
    // and counting it made every campaign's end look like failing workers.
    if (metrics_ && StillWantedLocked(lapsed)) metrics_->LeaseLapsed();
    ReturnLeaseLocked(lapsed);
  }
  if (!refresh) return;
  alive_workers_ = trust_.AliveCount(now - kWorkerSeenWindow);
  if (metrics_) {
    metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
    metrics_->SetWorkers(static_cast<double>(alive_workers_));
  }
}

void Coordinator::ReturnLeaseLocked(const LeaseRecord& lease) {
  auto it = runs_.find(lease.campaign_id);
  if (it == runs_.end()) return;
  CampaignRun& run = *it->second;
  if (lease.kind == LeaseKind::kGenerate) {
    // (A finished campaign leases nothing, unless an audit rolls it back.)
    if (!run.Delivered(lease.seq)) run.requeued.insert(lease.seq);
  } else if (auto p = run.pending.find(lease.seq);
             p != run.pending.end() && p->second.lease_id == lease.lease_id) {
    p->second.lease_id.clear();  // another verifier takes it
  } else if (auto a = run.audits.find(lease.seq);
             a != run.audits.end() && a->second.lease_id == lease.lease_id) {
    a->second.lease_id.clear();
  }
}

Result<foundry::v1::ReleaseResponse> Coordinator::ReleaseLeases(
    const foundry::v1::ReleaseRequest& request) {
  if (request.worker_id().empty()) return Status::InvalidArgument("worker_id is required");
  foundry::v1::ReleaseResponse resp;
  std::lock_guard lock(mu_);
  if (request.worker_stopping()) trust_.Left(request.worker_id());
  for (const std::string& id : request.lease_ids()) {
    const LeaseRecord* lease = leases_.Find(id);
    // Lease ids are unguessable, but a worker still may not free another's.
    if (lease == nullptr || lease->lapsed || lease->worker_id != request.worker_id()) continue;
    const LeaseRecord released = *lease;
    leases_.Remove(id);
    const bool wanted = StillWantedLocked(released);
    ReturnLeaseLocked(released);
    if (wanted && released.kind == LeaseKind::kGenerate) {
      runs_.at(released.campaign_id)->released_at[released.seq] = Clock::now();
    }
    resp.set_released(resp.released() + 1);
    if (metrics_ && wanted) metrics_->LeaseReleased();
  }
  if (metrics_) metrics_->SetJobsInFlight(static_cast<double>(leases_.live()));
  return resp;
}

uint32_t Coordinator::IdleRetryMsLocked(const std::string& worker_id, Clock::time_point now) const {
  const uint64_t base = std::clamp<uint64_t>(2 * alive_workers_, 200, 2000);
  // Jitter of +-25% from the worker and the time: no shared RNG state.
  const uint64_t h = std::hash<std::string>{}(worker_id) ^
                     static_cast<uint64_t>(now.time_since_epoch().count()) * 0x9E3779B97F4A7C15ULL;
  return static_cast<uint32_t>(base * 3 / 4 + (h >> 11) % (base / 2 + 1));
}

Campaign Coordinator::Snapshot(const CampaignRun& run) const {
  Campaign c = run.record;
  c.set_rate_per_second(run.rate.PerSecond(Clock::now()));
  return c;
}

// ---------------------------------------------------------------- campaigns

Result<Campaign> Coordinator::SubmitCampaign(const foundry::v1::CampaignSpec& spec_in) {
  foundry::v1::CampaignSpec spec = spec_in;
  auto family = puzzles::FindFamily(spec.family());
  if (!family.ok()) return Status::InvalidArgument(family.status().message());
  if (spec.count() < 1 || spec.count() > options_.max_count) {
    return Status::InvalidArgument(
        fmt::format("count must be 1..{}, got {}", options_.max_count, spec.count()));
  }
  if (spec.job_size() > kMaxJobSize) {
    return Status::InvalidArgument(
        fmt::format("job_size must be 0 (automatic) or 1..{}, got {}", kMaxJobSize, spec.job_size()));
  }
  auto params = CampaignParams(**family, spec);
  if (!params.ok()) return params.status();
  if (spec.job_size() == 0) {
    // Small campaigns get small jobs so that little work is thrown away at the
    // end; the job size never changes which puzzles a campaign stores.
    spec.set_job_size(static_cast<uint32_t>(
        std::clamp<uint64_t>(spec.count() / 16, 64, options_.default_job_size)));
  }

  Campaign record;
  record.set_id(fmt::format("c-{:016x}", Entropy()));
  *record.mutable_spec() = spec;
  record.set_params_json(params->json().dump());
  record.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
  record.set_created_unix_ms(NowUnixMs());
  record.set_updated_unix_ms(record.created_unix_ms());
  FOUNDRY_RETURN_IF_ERROR(store_->PutCampaign(record));
  AddRun(record, *family);
  return record;
}

Result<Campaign> Coordinator::GetCampaign(const std::string& campaign_id) {
  std::lock_guard lock(mu_);
  auto it = runs_.find(campaign_id);
  if (it == runs_.end()) return Status::NotFound(fmt::format("no campaign with id '{}'", campaign_id));
  return Snapshot(*it->second);
}

std::vector<Campaign> Coordinator::ListCampaigns(bool running_only) {
  std::vector<Campaign> out;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, run] : runs_) {
      if (!running_only || run->running()) out.push_back(Snapshot(*run));
    }
  }
  std::sort(out.begin(), out.end(), [](const Campaign& a, const Campaign& b) {
    return a.created_unix_ms() != b.created_unix_ms() ? a.created_unix_ms() > b.created_unix_ms()
                                                      : a.id() > b.id();
  });
  return out;
}

Result<Campaign> Coordinator::CancelCampaign(const std::string& campaign_id) {
  CommitExclusive commit_lock(*this);  // no commit may overwrite the cancel
  std::lock_guard lock(mu_);
  auto it = runs_.find(campaign_id);
  if (it == runs_.end()) return Status::NotFound(fmt::format("no campaign with id '{}'", campaign_id));
  CampaignRun& run = *it->second;
  if (!run.running()) return Snapshot(run);
  Campaign record = run.record;
  record.set_state(foundry::v1::CAMPAIGN_STATE_CANCELLED);
  record.set_message(fmt::format("cancelled after storing {} of {} puzzles",
                                 record.counters().stored(), record.spec().count()));
  record.set_finished_unix_ms(NowUnixMs());
  record.set_updated_unix_ms(record.finished_unix_ms());
  FOUNDRY_RETURN_IF_ERROR(store_->PutCampaign(record));
  run.record = std::move(record);
  run.window = CommitWindow(run.window.next_seq());  // drop buffered results
  run.pending.clear();
  return Snapshot(run);
}

}  // namespace foundry::coordinator
