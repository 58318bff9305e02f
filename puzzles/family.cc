#include "puzzles/family.h"

#include <algorithm>

namespace foundry::puzzles {

bool IsLevel(std::string_view level) {
  return std::find(std::begin(kLevels), std::end(kLevels), level) != std::end(kLevels);
}

std::string_view LevelForScore(double score, const LevelFloors& floors) {
  std::string_view level = kLevels[0];
  for (size_t i = 0; i < floors.size(); ++i) {
    if (score >= floors[i]) level = kLevels[i];
  }
  return level;
}

nlohmann::json Difficulty::ToJson() const {
  nlohmann::json j = details.is_object() ? details : nlohmann::json::object();
  j["level"] = level;
  j["score"] = score;
  return j;
}

Status Family::CheckParams(const Params&) const { return Status::Ok(); }

Result<Params> Family::MakeParams(const std::map<std::string, std::string>& raw) const {
  auto p = ParseParams(param_specs(), raw);
  if (!p.ok()) return p.status();
  FOUNDRY_RETURN_IF_ERROR(CheckParams(*p));
  return p;
}

Result<Params> Family::MakeParams(const nlohmann::json& object) const {
  auto p = ParamsFromJson(param_specs(), object);
  if (!p.ok()) return p.status();
  FOUNDRY_RETURN_IF_ERROR(CheckParams(*p));
  return p;
}

}  // namespace foundry::puzzles
