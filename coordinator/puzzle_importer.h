// PuzzleImporter: puzzles from export files, verified like a worker's
// submissions and committed like a campaign's jobs, under one finished
// campaign per family and import.
//
// State: none of its own beyond what an ImportSession carries between
// chunks; writes under the commit lock (commit_line.h), so that a campaign
// committing the same puzzle cannot slip in between its dedup and write.
// Private to coordinator/ except for the two structs, which callers fill.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "coordinator/commit_line.h"
#include "coordinator/coordinator_state.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"

namespace foundry::coordinator {

// One puzzle of an import, as read from an export file (see PuzzleImporter).
struct ImportItem {
  uint64_t line = 0;  // where it came from, echoed in rejections
  foundry::v1::Puzzle puzzle;
};

// What an import did so far; also carries its campaigns between chunks.
struct ImportSession {
  uint64_t stored = 0;
  uint64_t duplicates = 0;
  std::vector<std::pair<uint64_t, std::string>> rejected;  // (line, reason)
  std::map<std::string, foundry::v1::Campaign> campaigns;  // by family
};

class PuzzleImporter {
 public:
  PuzzleImporter(CoordinatorState& state, CommitLine& commits) : s_(state), commits_(commits) {}

  // The contract of Coordinator::ImportChunk. REQUIRES: mu not held.
  Status ImportChunk(ImportSession& session, std::vector<ImportItem> items);

 private:
  CoordinatorState& s_;
  CommitLine& commits_;
};

}  // namespace foundry::coordinator
