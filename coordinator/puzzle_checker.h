// CheckSubmission: the coordinator's distrust of workers.
//
// Every puzzle a worker submits is parsed, re-verified by its family (an
// independent uniqueness check) and given its id from the canonical bytes
// here, never taken from the worker, before it can be stored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/commit_window.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"

namespace foundry::coordinator {

// Where the puzzles came from, copied into each stored record.
struct Provenance {
  std::string campaign_id;
  uint64_t seed = 0;
  std::string params_json;
};

// Checks `submitted` (index order) and returns the verified puzzles as store
// records, counting the failures in CheckedJob::invalid. The first failure's
// reason goes to `first_problem` when it is not null.
CheckedJob CheckSubmission(const puzzles::Family& family, const Provenance& provenance,
                           uint64_t seq, std::vector<foundry::v1::GeneratedPuzzle> submitted,
                           int64_t now_unix_ms, std::string* first_problem);

}  // namespace foundry::coordinator
