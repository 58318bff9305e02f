#include "puzzles/goal.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/levels.h"

namespace foundry::puzzles {
namespace {

constexpr std::string_view kLevelKey = "level";
constexpr std::string_view kMinKey = "min_score";
constexpr std::string_view kMaxKey = "max_score";

Result<int> ParseLevel(std::string_view text) {
  if (text == "any") return -1;
  for (int i = 0; i < static_cast<int>(std::size(kLevels)); ++i) {
    if (kLevels[i] == text) return i;
  }
  return Status::InvalidArgument(
      fmt::format("level must be any|easy|medium|hard|expert, got '{}'", QuoteInput(text)));
}

Status BadScore(std::string_view key, std::string_view got) {
  return Status::InvalidArgument(fmt::format(
      "{} must be a number in 0..1 (a difficulty score), got '{}'", key, QuoteInput(got)));
}

Result<double> ParseScore(std::string_view key, const std::string& text) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) ||
      v < 0.0 || v > 1.0) {
    return BadScore(key, text);
  }
  return v;
}

Result<Goal> Checked(Goal g) {
  if (g.min_score > g.max_score) {
    return Status::InvalidArgument(fmt::format(
        "min_score {} is above max_score {}: no puzzle could meet both", g.min_score, g.max_score));
  }
  return g;
}

// A new goal that no grade can meet: a level and a score range apart. Every
// family grades level L into the L-th quarter of 0..1 (levels.h), its ends
// included (a score rounded to three places may reach the next floor).
Status CheckReachable(const Goal& g) {
  if (g.level < 0) return Status::Ok();
  const auto [lo, hi] = LevelScores(static_cast<size_t>(g.level));
  if (g.max_score >= lo && g.min_score <= hi) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "level {} has scores {}..{}, none of them in min_score {}..max_score {}: no puzzle could "
      "meet both",
      kLevels[g.level], lo, hi, g.min_score, g.max_score));
}

}  // namespace

bool Goal::Admits(std::string_view level_name, double score) const {
  if (level >= 0 && level_name != kLevels[level]) return false;
  return score >= min_score && score <= max_score;
}

std::string Goal::Describe() const {
  if (Any()) return "any grade";
  std::string out;
  if (level >= 0) out = fmt::format("level {}", kLevels[level]);
  if (min_score > 0.0 || max_score < 1.0) {
    if (!out.empty()) out += ", ";
    out += fmt::format("score {}..{}", min_score, max_score);
  }
  return out;
}

std::span<const GoalKey> GoalKeys() {
  static constexpr GoalKey kKeys[] = {
      {kLevelKey, "any", "any|easy|medium|hard|expert", "only puzzles graded at this level"},
      {kMinKey, "0", "0..1", "only puzzles whose difficulty score is at least this"},
      {kMaxKey, "1", "0..1", "only puzzles whose difficulty score is at most this"},
  };
  return kKeys;
}

bool IsGoalKey(std::string_view key) {
  return key == kLevelKey || key == kMinKey || key == kMaxKey;
}

Result<Goal> TakeGoal(std::map<std::string, std::string>& raw) {
  Goal g;
  if (auto it = raw.find(std::string(kLevelKey)); it != raw.end()) {
    auto level = ParseLevel(it->second);
    if (!level.ok()) return level.status();
    g.level = *level;
    raw.erase(it);
  }
  for (auto [key, bound] : {std::pair{kMinKey, &g.min_score}, std::pair{kMaxKey, &g.max_score}}) {
    if (auto it = raw.find(std::string(key)); it != raw.end()) {
      auto v = ParseScore(key, it->second);
      if (!v.ok()) return v.status();
      *bound = *v;
      raw.erase(it);
    }
  }
  Result<Goal> checked = Checked(g);
  if (checked.ok()) FOUNDRY_RETURN_IF_ERROR(CheckReachable(g));
  return checked;
}

Result<Goal> TakeGoal(nlohmann::json& object) {
  Goal g;
  if (!object.is_object()) return g;  // the caller reports the shape
  if (auto it = object.find(kLevelKey); it != object.end()) {
    if (!it->is_string()) return ParseLevel(it->dump()).status();
    auto level = ParseLevel(it->get<std::string>());
    if (!level.ok()) return level.status();
    g.level = *level;
    object.erase(it);
  }
  for (auto [key, bound] : {std::pair{kMinKey, &g.min_score}, std::pair{kMaxKey, &g.max_score}}) {
    if (auto it = object.find(key); it != object.end()) {
      if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0.0 ||
          it->get<double>() > 1.0) {
        return BadScore(key, it->dump());
      }
      *bound = it->get<double>();
      object.erase(it);
    }
  }
  return Checked(g);
}

void PutGoal(const Goal& goal, nlohmann::json& object) {
  if (goal.level >= 0) object[std::string(kLevelKey)] = kLevels[goal.level];
  if (goal.min_score > 0.0) object[std::string(kMinKey)] = goal.min_score;
  if (goal.max_score < 1.0) object[std::string(kMaxKey)] = goal.max_score;
}

}  // namespace foundry::puzzles
