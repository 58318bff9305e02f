// StorePoller: the console's memory of the last 15 minutes. One thread asks
// the coordinator for its store counts, campaigns and workers every interval
// (three small reads, whatever number of browsers are open) and keeps the
// stored-puzzles rate by family and each campaign's progress in ring
// buffers, so the charts have history the coordinator does not keep.
//
// Thread safety: every public method may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "console/coordinator_link.h"

namespace foundry::console {

// Stored puzzles per second of each family at one moment.
struct FamilyRates {
  int64_t t_ms = 0;
  std::map<std::string, double> rates;
};

// One campaign's progress at one moment.
struct CampaignPoint {
  int64_t t_ms = 0;
  uint64_t stored = 0;
  double rate = 0;
};

// The latest poll, for the overview page.
struct PollSnapshot {
  int64_t polled_ms = 0;  // 0: no poll has succeeded yet
  std::string error;      // why the last poll failed ("" when it did not)
  foundry::v1::StatsResponse stats;
  foundry::v1::ListWorkersResponse workers;
  std::deque<FamilyRates> history;  // oldest first
};

class StorePoller {
 public:
  // Polls with `token` every `interval`, keeping `window` of history.
  StorePoller(const CoordinatorLink& link, std::string token, std::chrono::milliseconds interval,
              std::chrono::milliseconds window = std::chrono::minutes(15));
  ~StorePoller();  // stops the thread

  // Starts the polling thread (the first poll is immediate).
  void Start();
  // One poll now, on the caller's thread.
  void PollOnce();

  std::chrono::milliseconds interval() const { return interval_; }
  PollSnapshot Snapshot() const;
  // The campaign's points over the window (empty when never seen running).
  std::vector<CampaignPoint> CampaignHistory(const std::string& campaign_id) const;

 private:
  void Run();

  const CoordinatorLink& link_;
  const std::string token_;
  const std::chrono::milliseconds interval_, window_;

  mutable std::mutex mu_;
  PollSnapshot latest_;
  std::map<std::string, uint64_t> last_family_totals_;
  std::map<std::string, std::deque<CampaignPoint>> campaigns_;

  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace foundry::console
