// DrawGroups: the per-(family, level) counters of the by_draw index, kept in
// memory as a mirror of their keys in RocksDB (keys.h, "draw_group"). Their
// number is that of the groups, never that of the puzzles: a store of any
// size costs a few hundred bytes here. Private to storage/.
//
// Thread safety: any number of readers at once. The store changes the
// counters only under its commit lock, after the WriteBatch that stored the
// same values was written, so a reader never sees a seq whose entry is not
// in RocksDB yet.
#pragma once

#include <cstdint>
#include <map>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace foundry::storage {

// One group's counters: seqs [0, next) were given out; `live` of them are
// stored (the rest are holes left by roll-backs).
struct DrawCounters {
  uint64_t next = 0;
  uint64_t live = 0;
  friend bool operator==(const DrawCounters&, const DrawCounters&) = default;
};

// (family, level) -> counters.
using DrawGroupMap = std::map<std::pair<std::string, std::string>, DrawCounters>;

// One group as a draw sees it.
struct DrawSpan {
  std::string family;
  std::string level;
  uint64_t next = 0;  // seqs [0, next) may hold an entry
};

class DrawGroups {
 public:
  // Replaces every counter (at open).
  void Reset(DrawGroupMap groups);

  // The counters of one group; zeros for a group never seen.
  DrawCounters Get(const std::string& family, const std::string& level) const;

  // Overwrites the counters of the groups in `changed`.
  void Update(const DrawGroupMap& changed);

  // The groups of `family` (every group when empty), restricted to `level`
  // when not empty, in (family, level) order; groups with no seq given out
  // are left out.
  std::vector<DrawSpan> Spans(const std::string& family, const std::string& level) const;

  // Live puzzles per (family, level): every group ever written, even one
  // whose puzzles were all rolled back (as 0).
  std::map<std::pair<std::string, std::string>, uint64_t> LevelCounts() const;

 private:
  mutable std::shared_mutex mu_;
  DrawGroupMap groups_;
};

}  // namespace foundry::storage
