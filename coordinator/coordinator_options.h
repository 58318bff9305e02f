// CoordinatorOptions: the coordinator's tunables, with their defaults.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "common/campaign_bounds.h"
#include "coordinator/worker_trust.h"

namespace foundry::coordinator {

struct CoordinatorOptions {
  // A lease lapses this long after its last heartbeat. Default 15 s.
  std::chrono::milliseconds lease_ttl{15000};
  // Workers are told to heartbeat this often. Default 3 s.
  std::chrono::milliseconds heartbeat_interval{3000};
  // Candidates per job when the campaign does not say. Default 2048.
  uint32_t default_job_size = 2048;
  // Most jobs leased or waiting to commit ahead of a campaign's cursor;
  // bounds the CommitWindow and the work lost at a campaign's end.
  uint32_t max_jobs_ahead = 32;
  // Largest count a campaign may ask for.
  uint64_t max_count = kMaxCampaignCount;
  // A campaign ends as exhausted when its last this-many committed
  // candidates gave nothing new (the family rejects nearly everything)...
  uint64_t stall_candidates = 2'000'000;
  // ...or when its last this-many accepted candidates were all already
  // stored (a small puzzle space, used up).
  uint64_t stall_duplicates = 20'000;
  // Probation, spot-check sample rate (worker_trust.h).
  TrustOptions trust;
  // A verification job nobody has taken for this long, while no worker
  // checked anything for as long, is done by the coordinator itself.
  // Default 10 s.
  std::chrono::milliseconds verify_wait{10000};
  // Workers must present this generation fingerprint at Lease; empty means
  // puzzles::GenerationFingerprint() of this build.
  std::string generation_fingerprint;
};

}  // namespace foundry::coordinator
