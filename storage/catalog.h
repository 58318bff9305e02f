// PuzzleCatalog: the filterable facts of every stored puzzle (family, level,
// generator score, creation time, campaign) in memory, for uniform sampling
// and exact counts without touching RocksDB. Private to storage/.
//
// Memory: a 40-byte entry per puzzle (a puzzle id of the usual
// "<prefix>-<32 hex>" form is kept as 16 bytes). RocksStore fills it from the
// by_score index at Open and adds each committed batch.
//
// Thread safety: any number of readers at once; Add takes the writer lock for
// the time it takes to append a batch (entries live in deques, so an append
// never moves existing ones).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace foundry::storage {

// What a catalog entry is checked against; empty/unset fields match all.
struct CatalogFilter {
  std::string family;
  std::string level;
  std::string campaign_id;
  std::optional<std::pair<double, double>> score;  // inclusive, generator score
  int64_t created_after_unix_ms = 0;               // >=, 0 = unbounded
  int64_t created_before_unix_ms = 0;              // <,  0 = unbounded
};

class PuzzleCatalog {
 public:
  struct Fact {
    std::string_view family;
    std::string_view id;
    std::string_view level;
    double score = 0;
    int64_t created_unix_ms = 0;
    std::string_view campaign_id;
  };

  // Appends puzzles; the caller guarantees each id is new to the catalog.
  void Add(const std::vector<Fact>& facts);

  // Forgets the puzzles with these ids (a campaign rolled back). Linear in
  // the size of the families concerned: rollbacks are rare.
  void Remove(const std::vector<std::pair<std::string, std::string>>& family_and_id);

  // Puzzles per (family, level).
  std::map<std::pair<std::string, std::string>, uint64_t> LevelCounts() const;

  // Up to `n` distinct ids of puzzles matching `filter` and not in
  // `exclude`, drawn uniformly without replacement from that set: every
  // subset of size min(n, |set|) is equally likely. Draws by rejection
  // first (cheap when the filter keeps a fair share of the family), then
  // enumerates the matching set when too few draws hit.
  std::vector<std::string> Sample(const CatalogFilter& filter, size_t n,
                                  const std::unordered_set<std::string>& exclude,
                                  std::mt19937_64& rng) const;

 private:
  struct Entry {
    uint64_t hi = 0, lo = 0;  // the id's 32 hex digits, or lo = index in odd_ids
    double score = 0;
    int64_t created = 0;
    uint32_t campaign = 0;
    uint8_t level = 0;
    bool odd = false;  // the id is not "<prefix>-<32 hex>"
  };
  struct Shard {
    std::string family;
    std::string prefix;  // the id prefix with its dash, from the first id
    std::deque<Entry> entries;
    std::vector<std::string> odd_ids;
    std::map<uint8_t, uint64_t> level_counts;
  };
  // An entry's identity for exclusion checks.
  struct Key {
    uint64_t hi, lo;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return static_cast<size_t>(k.hi * 0x9e3779b97f4a7c15ULL ^ k.lo); }
  };

  Entry MakeEntry(Shard& shard, std::string_view id);
  std::string IdOf(const Shard& shard, const Entry& e) const;
  uint8_t InternLevel(std::string_view level);
  uint32_t InternCampaign(std::string_view campaign);

  mutable std::shared_mutex mu_;
  std::vector<Shard> shards_;
  // uint32_t, not size_t, on purpose: RocksDB keeps an
  // unordered_map<std::string, uint64_t> too, and under TSan an instantiation
  // of that type in our binary interposes RocksDB's (uninstrumented) one,
  // which then reports RocksDB's internally synchronised accesses as races.
  std::unordered_map<std::string, uint32_t> shard_of_;
  std::vector<std::string> levels_;
  std::vector<std::string> campaigns_;
  std::unordered_map<std::string, uint32_t> campaign_of_;
};

}  // namespace foundry::storage
