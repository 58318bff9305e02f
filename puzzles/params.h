// Family parameters: what a family declares it accepts, and validated values.
//
// A family lists its parameters as ParamSpecs. ParseParams() turns the raw
// `key=value` strings a user typed into Params, filling defaults, and rejects
// an unknown key or an out-of-range value with a message that names the key and
// what is allowed. Params serialise to a canonical JSON object (sorted keys,
// every key present), which is what campaigns store and jobs carry.
//
// Thread safety: values; Params is immutable after parsing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/goal.h"

namespace foundry::puzzles {

struct ParamSpec {
  enum class Type { kInt, kBool, kChoice };

  std::string key;
  Type type = Type::kInt;
  // kInt: the inclusive range and the default.
  int64_t min = 0;
  int64_t max = 0;
  int64_t int_default = 0;
  // kBool: the default.
  bool bool_default = false;
  // kChoice: the allowed values; the first is the default.
  std::vector<std::string> choices;
  // One line for `foundry families`.
  std::string help;

  static ParamSpec Int(std::string key, int64_t def, int64_t min, int64_t max, std::string help);
  static ParamSpec Bool(std::string key, bool def, std::string help);
  static ParamSpec Choice(std::string key, std::vector<std::string> choices, std::string help);

  // "2..6", "true|false" or "a|b|c".
  std::string AllowedText() const;
  // The default as the user would type it.
  std::string DefaultText() const;
};

class Params {
 public:
  Params() = default;

  // The value of an integer parameter. REQUIRES: `key` is a declared kInt.
  int64_t Int(const std::string& key) const { return json_.at(key).get<int64_t>(); }
  // REQUIRES: `key` is a declared kBool.
  bool Bool(const std::string& key) const { return json_.at(key).get<bool>(); }
  // REQUIRES: `key` is a declared kChoice.
  std::string Choice(const std::string& key) const { return json_.at(key).get<std::string>(); }

  // The grade the puzzles must have (goal.h); Any() unless the campaign
  // asked for a level or a score range.
  const Goal& goal() const { return goal_; }

  // Every declared key with its value, then the goal's keys that are not at
  // their default; keys sorted.
  const nlohmann::json& json() const { return json_; }

 private:
  friend class Family;
  friend Result<Params> ParseParams(const std::vector<ParamSpec>&,
                                    const std::map<std::string, std::string>&);
  friend Result<Params> ParamsFromJson(const std::vector<ParamSpec>&, const nlohmann::json&);
  nlohmann::json json_ = nlohmann::json::object();
  Goal goal_;
};

// Validates `raw` (key -> text) against `specs` and fills defaults.
// Errors (InvalidArgument): unknown key (the message lists the known keys),
// a value that does not parse or lies outside the allowed range.
Result<Params> ParseParams(const std::vector<ParamSpec>& specs,
                           const std::map<std::string, std::string>& raw);

// Validates a JSON object (as stored in a campaign or carried by a job).
// Missing keys take their defaults; the same errors as ParseParams.
Result<Params> ParamsFromJson(const std::vector<ParamSpec>& specs, const nlohmann::json& object);

// For Family::CheckParams: InvalidArgument naming both keys and values when
// integer parameter `low` exceeds `high` (e.g. min_rules > max_rules).
Status CheckNotAbove(const Params& params, const std::string& low, const std::string& high);

}  // namespace foundry::puzzles
