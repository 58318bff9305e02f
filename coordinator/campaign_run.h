// CampaignRun: the coordinator's in-memory state of one campaign, shared by
// coordinator.cc (campaign API) and coordinator_jobs.cc (leases, commits).
// Private to coordinator/.
#pragma once

#include <algorithm>
#include <atomic>
#include <set>

#include "coordinator/coordinator.h"
#include "puzzles/rng.h"

namespace foundry::coordinator {

// One campaign's in-memory state. The record is the persisted part.
struct Coordinator::CampaignRun {
  foundry::v1::Campaign record;
  const puzzles::Family* family = nullptr;  // null: the family is not in this build
  uint64_t next_issue = 0;                  // next job never leased so far
  std::set<uint64_t> requeued;              // lapsed jobs to lease again, lowest first
  CommitWindow window;
  uint64_t candidates_since_new = 0;
  uint64_t duplicates_since_new = 0;
  RateMeter rate;
  // Stride scheduling: the candidates leased so far divided by the weight.
  // The next lease goes to the eligible campaign with the lowest pass, which
  // shares leases in proportion to the weights.
  double pass = 0;

  double weight() const { return std::max(1, record.spec().priority()); }

  bool running() const { return record.state() == foundry::v1::CAMPAIGN_STATE_RUNNING; }
  uint64_t job_size() const { return record.spec().job_size(); }
};

inline int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// `t` on the wall clock, for deadlines sent to workers.
inline int64_t ToUnixMs(Clock::time_point t) {
  return NowUnixMs() +
         std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
}

// Fresh random bits for ids that must differ between runs.
inline uint64_t Entropy() {
  static std::atomic<uint64_t> counter{0};
  return puzzles::SplitMix64(
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^
      (++counter << 48));
}

}  // namespace foundry::coordinator
