// Goal: the grade a campaign asks of every puzzle it stores, a level, a score
// range, or both. It is generic: Family::Generate() rejects a candidate whose
// grade misses the goal (reason "level"), whatever the family, and a family
// may read the goal to generate toward it (as sudoku does, the way Tatham's
// generators ask the solver for the grade they want).
//
// The goal travels inside Params, under reserved keys no family may declare:
// "level" (any|easy|medium|hard|expert), "min_score" and "max_score" (numbers
// in 0..1). A key at its default ("any", 0, 1) is left out of the JSON, so a
// campaign without a goal has exactly its family's parameters.
//
// Thread safety: a value type.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles {

struct Goal {
  // -1: any level; otherwise an index into kLevels.
  int level = -1;
  // Inclusive bounds on Difficulty::score.
  double min_score = 0.0;
  double max_score = 1.0;

  // True when the goal admits every grade.
  bool Any() const { return level < 0 && min_score <= 0.0 && max_score >= 1.0; }
  // True when a puzzle graded (level, score) meets the goal.
  bool Admits(std::string_view level_name, double score) const;
  // "level=hard, score 0.6..0.9", or "any grade".
  std::string Describe() const;
};

// One reserved key as `foundry families` and ListFamilies show it.
struct GoalKey {
  std::string_view key, default_text, allowed, help;
};
// The three reserved keys, which every family takes.
std::span<const GoalKey> GoalKeys();

// True for the reserved keys "level", "min_score" and "max_score".
bool IsGoalKey(std::string_view key);

// Takes the reserved keys out of `raw` (key -> text as typed) and parses them.
// Errors (InvalidArgument) name the key and what is allowed: a level that is
// not any|easy|medium|hard|expert, a score that is not a number in 0..1,
// min_score above max_score, or a score range that leaves out every score
// of the level (each level owns a quarter of 0..1: levels.h).
Result<Goal> TakeGoal(std::map<std::string, std::string>& raw);

// The same for a JSON object (a stored campaign's or a job's parameters):
// removes the reserved keys from `object` and parses them. A level apart
// from the score range is not refused here: a campaign stored before that
// rule still reads back.
Result<Goal> TakeGoal(nlohmann::json& object);

// Writes the keys of `goal` that are not at their default into `object`.
void PutGoal(const Goal& goal, nlohmann::json& object);

}  // namespace foundry::puzzles
