#include "console/store_poller.h"

#include <algorithm>

#include "common/unix_time.h"

namespace foundry::console {
namespace {

// Campaigns whose history is kept at once: the newest this many (a bound on
// memory whatever the store holds).
constexpr size_t kMaxTrackedCampaigns = 64;

}  // namespace

StorePoller::StorePoller(const CoordinatorLink& link, std::string token,
                         std::chrono::milliseconds interval, std::chrono::milliseconds window)
    : link_(link), token_(std::move(token)), interval_(interval), window_(window) {}

StorePoller::~StorePoller() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void StorePoller::Start() {
  thread_ = std::thread([this] { Run(); });
}

void StorePoller::Run() {
  std::unique_lock lock(stop_mu_);
  while (!stopping_) {
    lock.unlock();
    PollOnce();
    lock.lock();
    stop_cv_.wait_for(lock, interval_, [this] { return stopping_; });
  }
}

void StorePoller::PollOnce() {
  foundry::v1::StatsResponse stats;
  foundry::v1::ListWorkersResponse workers;
  grpc::Status s = link_.store().GetStats(link_.Context(token_).get(), {}, &stats);
  if (s.ok()) s = link_.campaigns().ListWorkers(link_.Context(token_).get(), {}, &workers);
  const int64_t now = NowUnixMs();
  std::lock_guard lock(mu_);
  if (!s.ok()) {
    latest_.error = LinkError(s, link_.address()).message();
    return;
  }
  std::map<std::string, uint64_t> totals;
  for (const auto& level : stats.levels()) totals[level.family()] += level.puzzles();

  // The rate needs two polls; the first only sets the baseline.
  if (latest_.polled_ms > 0 && now > latest_.polled_ms) {
    FamilyRates point{now, {}};
    const double seconds = static_cast<double>(now - latest_.polled_ms) / 1000.0;
    for (const auto& [family, n] : totals) {
      const uint64_t before = last_family_totals_.count(family) ? last_family_totals_[family] : n;
      point.rates[family] = n >= before ? static_cast<double>(n - before) / seconds : 0.0;
    }
    latest_.history.push_back(std::move(point));
  }
  while (!latest_.history.empty() && now - latest_.history.front().t_ms > window_.count()) {
    latest_.history.pop_front();
  }

  // Campaigns: every running one gets a point; finished ones keep theirs
  // until they age out of the window.
  for (const auto& c : stats.campaigns()) {
    const bool running = c.state() == foundry::v1::CAMPAIGN_STATE_RUNNING;
    auto it = campaigns_.find(c.id());
    if (it == campaigns_.end()) {
      if (!running) continue;
      it = campaigns_.emplace(c.id(), std::deque<CampaignPoint>{}).first;
    }
    auto& points = it->second;
    if (running || points.empty() || points.back().stored != c.counters().stored()) {
      points.push_back({now, c.counters().stored(), running ? c.rate_per_second() : 0.0});
    }
  }
  for (auto it = campaigns_.begin(); it != campaigns_.end();) {
    auto& points = it->second;
    while (!points.empty() && now - points.front().t_ms > window_.count()) points.pop_front();
    it = points.empty() ? campaigns_.erase(it) : std::next(it);
  }
  while (campaigns_.size() > kMaxTrackedCampaigns) {
    // Drop the one whose newest point is oldest.
    auto oldest = std::min_element(
        campaigns_.begin(), campaigns_.end(),
        [](const auto& a, const auto& b) { return a.second.back().t_ms < b.second.back().t_ms; });
    campaigns_.erase(oldest);
  }

  last_family_totals_ = std::move(totals);
  latest_.polled_ms = now;
  latest_.error.clear();
  latest_.stats = std::move(stats);
  latest_.workers = std::move(workers);
}

PollSnapshot StorePoller::Snapshot() const {
  std::lock_guard lock(mu_);
  return latest_;
}

std::vector<CampaignPoint> StorePoller::CampaignHistory(const std::string& campaign_id) const {
  std::lock_guard lock(mu_);
  auto it = campaigns_.find(campaign_id);
  if (it == campaigns_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

}  // namespace foundry::console
