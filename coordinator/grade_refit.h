// The refit of each family's grade -> rating mapping from observed plays
// (docs/players.md, "Fitting the mapping"): least squares of the current
// ratings of well-played puzzles against their generator scores, with
// per_score >= 0, stored per family (Store::PutGradeMappings).
#pragma once

#include <cstdint>

#include "common/status.h"
#include "foundry/v1/store.pb.h"
#include "storage/store.h"

namespace foundry::coordinator {

// What a refit uses.
struct RefitOptions {
  // Puzzles with fewer judged plays are left out: their ratings are still
  // mostly their initial ones.
  uint64_t min_judged_plays = 20;
  // A family with fewer such puzzles keeps its mapping.
  uint64_t min_puzzles = 10;
};

// Refits every family with puzzles in `store`, stores the new mappings in
// one write, and reports each family (puzzles used, the mapping before and
// after, the mean absolute error of initial vs current rating with each).
// `default_mapping` is the mapping of families never fitted. Reads every
// rated puzzle once (Store::ForEachRatedPuzzle).
Result<foundry::v1::RefitRatingsResponse> RefitGradeMappings(
    storage::Store& store, const storage::GradeMapping& default_mapping,
    const RefitOptions& options);

}  // namespace foundry::coordinator
