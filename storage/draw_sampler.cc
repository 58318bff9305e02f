#include "storage/draw_sampler.h"

#include <algorithm>
#include <unordered_map>

#include "storage/keys.h"

namespace foundry::storage {

namespace {

// A uniformly random permutation of [0, total), drawn one element at a time:
// Fisher-Yates over a virtual array, where only the swapped slots are kept.
class LazyPermutation {
 public:
  explicit LazyPermutation(uint64_t total) : total_(total) {}
  bool Done() const { return drawn_ == total_; }
  uint64_t Drawn() const { return drawn_; }
  uint64_t Next(std::mt19937_64& rng) {
    std::uniform_int_distribution<uint64_t> pick(drawn_, total_ - 1);
    const uint64_t j = pick(rng);
    const uint64_t at_j = At(j);
    swapped_[j] = At(drawn_);
    swapped_.erase(drawn_);
    ++drawn_;
    return at_j;
  }

 private:
  uint64_t At(uint64_t i) const {
    auto it = swapped_.find(i);
    return it == swapped_.end() ? i : it->second;
  }
  const uint64_t total_;
  uint64_t drawn_ = 0;
  std::unordered_map<uint64_t, uint64_t> swapped_;
};

bool Matches(const DrawFilter& f, const keys::DrawValue& v) {
  if (!f.campaign_id.empty() && v.campaign_id != f.campaign_id) return false;
  if (f.score && (v.score < f.score->first || v.score > f.score->second)) return false;
  if (f.created_after_unix_ms != 0 && v.created_unix_ms < f.created_after_unix_ms) return false;
  if (f.created_before_unix_ms != 0 && v.created_unix_ms >= f.created_before_unix_ms) return false;
  return true;
}

}  // namespace

Result<std::vector<std::string>> DrawSampler::Sample(const std::vector<DrawSpan>& spans,
                                                     const DrawFilter& filter, size_t n,
                                                     const std::unordered_set<std::string>& exclude,
                                                     std::mt19937_64& rng, const Fetch& fetch,
                                                     const Enumerate& enumerate) {
  std::vector<std::string> out;
  if (n == 0 || spans.empty()) return out;
  // Positions [ends[k-1], ends[k]) are the seqs of spans[k].
  std::vector<uint64_t> ends;
  uint64_t total = 0;
  for (const DrawSpan& s : spans) ends.push_back(total += s.next);
  if (total == 0) return out;

  // Phase 1: draws in batches of point lookups, in permutation order.
  std::unordered_set<std::string> picked;
  LazyPermutation order(total);
  const uint64_t budget = std::max<uint64_t>(kMinProbes, kProbesPerPuzzle * uint64_t{n});
  std::vector<std::string> keys;
  std::vector<std::optional<std::string>> values;
  while (out.size() < n && !order.Done() && order.Drawn() < budget) {
    const uint64_t batch =
        std::min<uint64_t>({n - out.size(), budget - order.Drawn(), total - order.Drawn()});
    keys.clear();
    for (uint64_t i = 0; i < batch; ++i) {
      const uint64_t pos = order.Next(rng);
      const size_t k =
          static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), pos) - ends.begin());
      const uint64_t start = k == 0 ? 0 : ends[k - 1];
      keys.push_back(keys::DrawKey(spans[k].family, spans[k].level, pos - start));
    }
    FOUNDRY_RETURN_IF_ERROR(fetch(keys, values));
    for (size_t i = 0; i < keys.size() && out.size() < n; ++i) {
      if (!values[i]) continue;  // a hole
      std::optional<keys::DrawValue> v = keys::DecodeDrawValue(*values[i]);
      if (!v) return Status::DataLoss("malformed by_draw entry");
      if (!Matches(filter, *v)) continue;
      std::string id(v->id);
      if (exclude.count(id) != 0) continue;
      picked.insert(id);
      out.push_back(std::move(id));
    }
  }
  if (out.size() == n || order.Done()) return out;

  // Phase 2: a selective filter (or many holes or exclusions). Reservoir
  // sampling over the matches not picked yet: uniform over what remains,
  // so the whole is still uniform without replacement.
  const size_t need = n - out.size();
  std::vector<std::string> reservoir;
  uint64_t seen = 0;
  FOUNDRY_RETURN_IF_ERROR(enumerate([&](const std::string& id) {
    if (exclude.count(id) != 0 || picked.count(id) != 0) return true;
    ++seen;
    if (reservoir.size() < need) {
      reservoir.push_back(id);
    } else {
      std::uniform_int_distribution<uint64_t> slot(0, seen - 1);
      const uint64_t j = slot(rng);
      if (j < need) reservoir[j] = id;
    }
    return true;
  }));
  std::shuffle(reservoir.begin(), reservoir.end(), rng);
  for (std::string& id : reservoir) out.push_back(std::move(id));
  return out;
}

}  // namespace foundry::storage
