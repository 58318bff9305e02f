#include "puzzles/family.h"

#include <fmt/format.h>

namespace foundry::puzzles {

nlohmann::json Difficulty::ToJson() const {
  nlohmann::json j = details.is_object() ? details : nlohmann::json::object();
  j["level"] = level;
  j["score"] = score;
  return j;
}

Status Family::CheckParams(const Params&) const { return Status::Ok(); }

Result<std::optional<AnswerScore>> Family::ScoreAnswer(const nlohmann::json&, const nlohmann::json&,
                                                       std::string_view) const {
  return std::optional<AnswerScore>();
}

Result<std::unique_ptr<Guesser>> Family::NewGuesser(const Params&, std::string_view) const {
  return Status::FailedPrecondition(
      fmt::format("the family {} has no computer guesser (bulls-cows has one)", name()));
}

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
