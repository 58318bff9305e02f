#include "storage/catalog.h"

#include <unordered_set>

#include <algorithm>
#include <mutex>

namespace foundry::storage {

namespace {

constexpr size_t kHexDigits = 32;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Splits "<prefix>-<32 lowercase hex>" into the prefix with its dash and the
// 128-bit value; nullopt for any other id.
std::optional<std::pair<std::string_view, std::pair<uint64_t, uint64_t>>> SplitId(std::string_view id) {
  if (id.size() < kHexDigits + 2 || id[id.size() - kHexDigits - 1] != '-') return std::nullopt;
  uint64_t hi = 0, lo = 0;
  for (size_t i = 0; i < kHexDigits; ++i) {
    const int v = HexValue(id[id.size() - kHexDigits + i]);
    if (v < 0) return std::nullopt;
    uint64_t& half = i < 16 ? hi : lo;
    half = (half << 4) | static_cast<uint64_t>(v);
  }
  return std::make_pair(id.substr(0, id.size() - kHexDigits), std::make_pair(hi, lo));
}

void AppendHex(std::string& out, uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) out.push_back(kHex[(v >> shift) & 0xf]);
}

}  // namespace

PuzzleCatalog::Entry PuzzleCatalog::MakeEntry(Shard& shard, std::string_view id) {
  Entry e;
  auto split = SplitId(id);
  if (split && shard.prefix.empty() && shard.entries.empty()) shard.prefix = split->first;
  if (split && split->first == shard.prefix) {
    e.hi = split->second.first;
    e.lo = split->second.second;
  } else {
    e.odd = true;
    e.lo = shard.odd_ids.size();
    shard.odd_ids.emplace_back(id);
  }
  return e;
}

std::string PuzzleCatalog::IdOf(const Shard& shard, const Entry& e) const {
  if (e.odd) return shard.odd_ids[e.lo];
  std::string id = shard.prefix;
  id.reserve(shard.prefix.size() + kHexDigits);
  AppendHex(id, e.hi);
  AppendHex(id, e.lo);
  return id;
}

uint8_t PuzzleCatalog::InternLevel(std::string_view level) {
  for (size_t i = 0; i < levels_.size(); ++i) {
    if (levels_[i] == level) return static_cast<uint8_t>(i);
  }
  // Levels are the four of kLevels in practice; a store with more than 255
  // distinct ones folds the rest into the last slot rather than failing.
  if (levels_.size() == 255) return 254;
  levels_.emplace_back(level);
  return static_cast<uint8_t>(levels_.size() - 1);
}

uint32_t PuzzleCatalog::InternCampaign(std::string_view campaign) {
  auto [it, inserted] = campaign_of_.try_emplace(std::string(campaign),
                                                 static_cast<uint32_t>(campaigns_.size()));
  if (inserted) campaigns_.emplace_back(campaign);
  return it->second;
}

void PuzzleCatalog::Add(const std::vector<Fact>& facts) {
  std::unique_lock lock(mu_);
  for (const Fact& f : facts) {
    auto [it, inserted] = shard_of_.try_emplace(std::string(f.family), static_cast<uint32_t>(shards_.size()));
    if (inserted) shards_.push_back(Shard{std::string(f.family), "", {}, {}, {}});
    Shard& shard = shards_[it->second];
    Entry e = MakeEntry(shard, f.id);
    e.score = f.score;
    e.created = f.created_unix_ms;
    e.campaign = InternCampaign(f.campaign_id);
    e.level = InternLevel(f.level);
    ++shard.level_counts[e.level];
    shard.entries.push_back(e);
  }
}

void PuzzleCatalog::Remove(const std::vector<std::pair<std::string, std::string>>& family_and_id) {
  std::unique_lock lock(mu_);
  std::map<uint32_t, std::unordered_set<std::string>> by_shard;
  for (const auto& [family, id] : family_and_id) {
    if (auto it = shard_of_.find(family); it != shard_of_.end()) by_shard[it->second].insert(id);
  }
  for (auto& [index, ids] : by_shard) {
    Shard& shard = shards_[index];
    std::deque<Entry> kept;
    for (const Entry& e : shard.entries) {
      if (ids.count(IdOf(shard, e)) != 0) {
        --shard.level_counts[e.level];
      } else {
        kept.push_back(e);
      }
    }
    shard.entries = std::move(kept);
  }
}

std::map<std::pair<std::string, std::string>, uint64_t> PuzzleCatalog::LevelCounts() const {
  std::shared_lock lock(mu_);
  std::map<std::pair<std::string, std::string>, uint64_t> counts;
  for (const Shard& shard : shards_) {
    for (const auto& [level, count] : shard.level_counts) counts[{shard.family, levels_[level]}] += count;
  }
  return counts;
}

std::vector<std::string> PuzzleCatalog::Sample(const CatalogFilter& filter, size_t n,
                                               const std::unordered_set<std::string>& exclude,
                                               std::mt19937_64& rng) const {
  std::vector<std::string> out;
  if (n == 0) return out;
  std::shared_lock lock(mu_);

  std::vector<const Shard*> shards;
  if (filter.family.empty()) {
    for (const Shard& s : shards_) shards.push_back(&s);
  } else if (auto it = shard_of_.find(filter.family); it != shard_of_.end()) {
    shards.push_back(&shards_[it->second]);
  }
  std::optional<uint8_t> level;
  if (!filter.level.empty()) {
    auto it = std::find(levels_.begin(), levels_.end(), filter.level);
    if (it == levels_.end()) return out;
    level = static_cast<uint8_t>(it - levels_.begin());
  }
  std::optional<uint32_t> campaign;
  if (!filter.campaign_id.empty()) {
    auto it = campaign_of_.find(filter.campaign_id);
    if (it == campaign_of_.end()) return out;
    campaign = it->second;
  }
  std::unordered_set<Key, KeyHash> excluded_keys;
  for (const std::string& id : exclude) {
    if (auto split = SplitId(id)) excluded_keys.insert(Key{split->second.first, split->second.second});
  }

  auto matches = [&](const Shard& s, const Entry& e) {
    if (level && e.level != *level) return false;
    if (campaign && e.campaign != *campaign) return false;
    if (filter.score && (e.score < filter.score->first || e.score > filter.score->second)) return false;
    if (filter.created_after_unix_ms != 0 && e.created < filter.created_after_unix_ms) return false;
    if (filter.created_before_unix_ms != 0 && e.created >= filter.created_before_unix_ms) return false;
    if (exclude.empty()) return true;
    return e.odd ? exclude.count(s.odd_ids[e.lo]) == 0 : excluded_keys.count(Key{e.hi, e.lo}) == 0;
  };

  // Positions 0..total-1 run through the chosen shards in order.
  std::vector<uint64_t> ends;
  uint64_t total = 0;
  for (const Shard* s : shards) ends.push_back(total += s->entries.size());
  if (total == 0) return out;
  auto locate = [&](uint64_t pos) {
    const size_t k = static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), pos) - ends.begin());
    const uint64_t start = k == 0 ? 0 : ends[k - 1];
    return std::make_pair(shards[k], &shards[k]->entries[pos - start]);
  };

  // Phase 1: rejection. Each hit is uniform over the matching entries not
  // yet picked, so the picks so far are a uniform sample without replacement.
  std::unordered_set<uint64_t> picked;
  std::uniform_int_distribution<uint64_t> any(0, total - 1);
  const size_t attempts = std::max<size_t>(64, 16 * n);
  for (size_t a = 0; a < attempts && out.size() < n; ++a) {
    const uint64_t pos = any(rng);
    if (picked.count(pos)) continue;
    auto [shard, entry] = locate(pos);
    if (!matches(*shard, *entry)) continue;
    picked.insert(pos);
    out.push_back(IdOf(*shard, *entry));
  }
  if (out.size() == n) return out;

  // Phase 2: the filter is selective (or the set small): list every
  // remaining match and finish with a partial Fisher-Yates shuffle.
  std::vector<uint64_t> rest;
  uint64_t pos = 0;
  for (const Shard* s : shards) {
    for (const Entry& e : s->entries) {
      if (!picked.count(pos) && matches(*s, e)) rest.push_back(pos);
      ++pos;
    }
  }
  const size_t need = std::min(n - out.size(), rest.size());
  for (size_t i = 0; i < need; ++i) {
    std::uniform_int_distribution<size_t> pick(i, rest.size() - 1);
    std::swap(rest[i], rest[pick(rng)]);
    auto [shard, entry] = locate(rest[i]);
    out.push_back(IdOf(*shard, *entry));
  }
  return out;
}

}  // namespace foundry::storage
