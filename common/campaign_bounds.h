// The ranges of a campaign's numbers, one definition for the coordinator
// that enforces them and the clients (the foundry command, the console)
// that check a form or a command line before sending it.
#pragma once

#include <cstdint>

namespace foundry {

// CampaignSpec.count: puzzles new to the store, 1..kMaxCampaignCount (a
// coordinator may be started with a lower limit).
inline constexpr uint64_t kMaxCampaignCount = 100'000'000;

// CampaignSpec.priority: 0..kMaxPriority; leases are shared in proportion
// to max(1, priority).
inline constexpr int32_t kMaxPriority = 1'000'000;

// CampaignSpec.job_size: 0 (the coordinator chooses) or 1..kMaxJobSize.
inline constexpr uint32_t kMaxJobSize = 1'000'000;

}  // namespace foundry
