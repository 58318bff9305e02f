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

Result<Params> Family::WithGoal(Result<Params> p, Result<Goal> goal) const {
  if (!goal.ok()) return goal.status();
  if (!p.ok()) return p.status();
  FOUNDRY_RETURN_IF_ERROR(CheckParams(*p));
  p->goal_ = *goal;
  PutGoal(*goal, p->json_);
  return p;
}

Result<Params> Family::MakeParams(const std::map<std::string, std::string>& raw) const {
  std::map<std::string, std::string> own = raw;
  Result<Goal> goal = TakeGoal(own);
  return WithGoal(ParseParams(param_specs(), own), std::move(goal));
}

Result<Params> Family::MakeParams(const nlohmann::json& object) const {
  nlohmann::json own = object;
  Result<Goal> goal = TakeGoal(own);
  return WithGoal(ParamsFromJson(param_specs(), own), std::move(goal));
}

Candidate Family::Generate(Rng& rng, const Params& params) const {
  Candidate c = GenerateCandidate(rng, params);
  if (const auto* a = std::get_if<Accepted>(&c)) {
    if (!params.goal().Admits(a->difficulty.level, a->difficulty.score)) return Rejected{"level"};
  }
  return c;
}

}  // namespace foundry::puzzles
