// DrawSampler: a uniform sample without replacement over the puzzles of the
// by_draw index (keys.h) that match a filter, with no per-puzzle state in
// memory. Private to storage/.
//
// The groups' seq ranges [0, next) are laid end to end into one position
// space; the sampler walks a uniformly random permutation of it (a lazy
// Fisher-Yates: memory in the number of draws, not of puzzles) and keeps
// the first `n` positions whose entry exists (not a roll-back's hole),
// matches and is not excluded. Those are the first n matches of a uniform
// random order of all matches: every subset of that size is equally likely.
// After a bounded number of draws (a selective filter, or many holes) it
// finishes by enumerating the remaining matches and drawing from them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/status.h"
#include "storage/draw_groups.h"

namespace foundry::storage {

// What a by_draw entry is checked against, beyond its group; unset fields
// match everything.
struct DrawFilter {
  std::string campaign_id;
  std::optional<std::pair<double, double>> score;  // inclusive, generator score
  int64_t created_after_unix_ms = 0;               // >=, 0 = unbounded
  int64_t created_before_unix_ms = 0;              // <,  0 = unbounded
};

class DrawSampler {
 public:
  // Reads the by_draw values at `keys` into `values` (resized to match;
  // nullopt where no entry is stored). One batch per call.
  using Fetch = std::function<Status(const std::vector<std::string>& keys,
                                     std::vector<std::optional<std::string>>& values)>;
  // Calls `visit` with the id of every puzzle of the spans that matches the
  // filter (excluded ones included); stops when it returns false.
  using Enumerate = std::function<Status(const std::function<bool(const std::string& id)>& visit)>;

  // The first draws probe at most this many positions before enumerating:
  // max(kMinProbes, kProbesPerPuzzle * n).
  static constexpr size_t kMinProbes = 64;
  static constexpr size_t kProbesPerPuzzle = 16;

  // Up to `n` distinct ids, uniform without replacement over the entries of
  // `spans` that match `filter` and are not in `exclude`.
  static Result<std::vector<std::string>> Sample(const std::vector<DrawSpan>& spans,
                                                 const DrawFilter& filter, size_t n,
                                                 const std::unordered_set<std::string>& exclude,
                                                 std::mt19937_64& rng, const Fetch& fetch,
                                                 const Enumerate& enumerate);
};

}  // namespace foundry::storage
