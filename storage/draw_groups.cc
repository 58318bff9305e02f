#include "storage/draw_groups.h"

#include <mutex>

namespace foundry::storage {

void DrawGroups::Reset(DrawGroupMap groups) {
  std::unique_lock lock(mu_);
  groups_ = std::move(groups);
}

DrawCounters DrawGroups::Get(const std::string& family, const std::string& level) const {
  std::shared_lock lock(mu_);
  auto it = groups_.find({family, level});
  return it == groups_.end() ? DrawCounters{} : it->second;
}

void DrawGroups::Update(const DrawGroupMap& changed) {
  std::unique_lock lock(mu_);
  for (const auto& [group, counters] : changed) groups_[group] = counters;
}

std::vector<DrawSpan> DrawGroups::Spans(const std::string& family, const std::string& level) const {
  std::shared_lock lock(mu_);
  std::vector<DrawSpan> spans;
  auto it = family.empty() ? groups_.begin() : groups_.lower_bound({family, level});
  for (; it != groups_.end(); ++it) {
    const auto& [name, counters] = *it;
    if (!family.empty() && name.first != family) break;
    if (!level.empty() && name.second != level) break;
    if (counters.next > 0) spans.push_back({name.first, name.second, counters.next});
  }
  return spans;
}

std::map<std::pair<std::string, std::string>, uint64_t> DrawGroups::LevelCounts() const {
  std::shared_lock lock(mu_);
  std::map<std::pair<std::string, std::string>, uint64_t> counts;
  for (const auto& [group, counters] : groups_) counts[group] = counters.live;
  return counts;
}

}  // namespace foundry::storage
