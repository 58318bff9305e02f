#include "coordinator/coordinator.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/campaign_bounds.h"
#include "common/quote.h"
#include "common/secure_random.h"
#include "coordinator/campaign_run.h"
#include "coordinator/campaign_spec.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {
namespace {

using foundry::v1::Campaign;

}  // namespace

Coordinator::Coordinator(storage::Store* store, CoordinatorOptions options,
                         CoordinatorMetrics* metrics)
    : state_(store, std::move(options), metrics) {}

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
  if (state_.metrics) state_.metrics->SetProgress(run->record.id(), run->record.progress());
  std::lock_guard lock(state_.mu);
  // A newcomer starts level with the campaigns already running, so that it
  // neither starves them nor waits behind their history.
  bool first = true;
  for (const auto& [id, other] : state_.runs) {
    if (!other->running()) continue;
    run->pass = first ? other->pass : std::min(run->pass, other->pass);
    first = false;
  }
  state_.runs[run->record.id()] = std::move(run);
}

void Coordinator::TickerLoop() {
  std::unique_lock lock(ticker_mu_);
  int tick = 0;
  while (!ticker_cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; })) {
    if (++tick % 5 == 0) commits_.TryRelease();  // a full disk: has space returned?
    std::vector<VerifyWork> stale;
    {
      std::lock_guard state_lock(state_.mu);
      const auto now = Clock::now();
      jobs_.TickLocked(now, /*refresh=*/true);
      stale = checks_.TakeStaleWorkLocked(now);
    }
    // Checks no worker took in time: done here, so that commits go on.
    for (VerifyWork& work : stale) checks_.VerifyHere(std::move(work));
  }
}

Campaign Coordinator::Snapshot(const CampaignRun& run) const {
  Campaign c = run.record;
  c.set_rate_per_second(run.rate.PerSecond(Clock::now()));
  if (run.running()) {
    if (std::string why = commits_.HeldReasonLocked(); !why.empty()) {
      c.set_message("waiting for disk space, nothing is lost: " + why);
    }
  }
  return c;
}

// ---------------------------------------------------------------- campaigns

Result<Campaign> Coordinator::SubmitCampaign(const foundry::v1::CampaignSpec& spec_in) {
  foundry::v1::CampaignSpec spec = spec_in;
  auto family = puzzles::FindFamily(spec.family());
  if (!family.ok()) return Status::InvalidArgument(family.status().message());
  if (spec.count() < 1 || spec.count() > state_.options.max_count) {
    return Status::InvalidArgument(
        fmt::format("count must be 1..{}, got {}", state_.options.max_count, spec.count()));
  }
  if (spec.priority() < 0 || spec.priority() > kMaxPriority) {
    return Status::InvalidArgument(
        fmt::format("priority must be 0..{}, got {}", kMaxPriority, spec.priority()));
  }
  if (spec.job_size() > kMaxJobSize) {
    return Status::InvalidArgument(fmt::format("job_size must be 0 (automatic) or 1..{}, got {}",
                                               kMaxJobSize, spec.job_size()));
  }
  auto params = CampaignParams(**family, spec);
  if (!params.ok()) return params.status();
  // A campaign started on a full disk could not store anything.
  FOUNDRY_RETURN_IF_ERROR(state_.store->WriteState());
  if (spec.job_size() == 0) {
    // Small campaigns get small jobs so that little work is thrown away at the
    // end (a 16x16 sudoku candidate takes a tenth of a second or more: ten
    // puzzles must not cost 64 candidates); the job size never changes which
    // puzzles a campaign stores.
    const uint64_t smallest = std::min<uint64_t>(spec.count(), 16);
    spec.set_job_size(static_cast<uint32_t>(std::min<uint64_t>(
        std::max<uint64_t>(spec.count() / 16, smallest), state_.options.default_job_size)));
  }

  Campaign record;
  record.set_id(fmt::format("c-{:016x}", SecureRandom64()));
  *record.mutable_spec() = spec;
  record.set_params_json(params->json().dump());
  record.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
  record.set_created_unix_ms(NowUnixMs());
  record.set_updated_unix_ms(record.created_unix_ms());
  FOUNDRY_RETURN_IF_ERROR(state_.store->PutCampaign(record));
  AddRun(record, *family);
  return record;
}

Result<Campaign> Coordinator::GetCampaign(const std::string& campaign_id) {
  std::lock_guard lock(state_.mu);
  auto it = state_.runs.find(campaign_id);
  if (it == state_.runs.end())
    return Status::NotFound(fmt::format("no campaign with id '{}'", QuoteInput(campaign_id)));
  return Snapshot(*it->second);
}

std::vector<Campaign> Coordinator::ListCampaigns(bool running_only) {
  std::vector<Campaign> out;
  {
    std::lock_guard lock(state_.mu);
    for (const auto& [id, run] : state_.runs) {
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
  CommitLine::Exclusive commit_lock(commits_);  // no commit may overwrite the cancel
  std::lock_guard lock(state_.mu);
  auto it = state_.runs.find(campaign_id);
  if (it == state_.runs.end())
    return Status::NotFound(fmt::format("no campaign with id '{}'", QuoteInput(campaign_id)));
  CampaignRun& run = *it->second;
  if (!run.running()) return Snapshot(run);
  Campaign record = run.record;
  record.set_state(foundry::v1::CAMPAIGN_STATE_CANCELLED);
  record.set_message(fmt::format("cancelled after storing {} of {} puzzles",
                                 record.counters().stored(), record.spec().count()));
  record.set_finished_unix_ms(NowUnixMs());
  record.set_updated_unix_ms(record.finished_unix_ms());
  FOUNDRY_RETURN_IF_ERROR(state_.store->PutCampaign(record));
  run.record = std::move(record);
  run.window = CommitWindow(run.window.next_seq());  // drop buffered results
  run.pending.clear();
  return Snapshot(run);
}

// ---------------------------------------------------------------- parts

Status Coordinator::ImportChunk(ImportSession& session, std::vector<ImportItem> items) {
  return importer_.ImportChunk(session, std::move(items));
}

void Coordinator::FinishImport(const ImportSession& session) {
  for (const auto& [family, record] : session.campaigns) {
    auto f = puzzles::FindFamily(family);
    AddRun(record, f.ok() ? *f : nullptr);
  }
}

Result<foundry::v1::LeaseResponse> Coordinator::Lease(const foundry::v1::LeaseRequest& request) {
  return jobs_.Lease(request);
}

Result<foundry::v1::HeartbeatResponse> Coordinator::Heartbeat(
    const foundry::v1::HeartbeatRequest& request) {
  return jobs_.Heartbeat(request);
}

Result<foundry::v1::SubmitResponse> Coordinator::SubmitResults(
    std::vector<foundry::v1::ResultChunk> chunks) {
  return jobs_.SubmitResults(std::move(chunks));
}

Result<SubmissionBound> Coordinator::SubmissionBoundFor(const std::string& lease_id) {
  return jobs_.SubmissionBoundFor(lease_id);
}

Result<foundry::v1::ReleaseResponse> Coordinator::ReleaseLeases(
    const foundry::v1::ReleaseRequest& request) {
  return jobs_.ReleaseLeases(request);
}

foundry::v1::ListWorkersResponse Coordinator::ListWorkers() { return checks_.ListWorkers(); }

size_t Coordinator::checks_outstanding() { return checks_.outstanding(); }

}  // namespace foundry::coordinator
