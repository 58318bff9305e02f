// Effort measures: for each family, a figure of how hard a puzzle is to
// solve that the family's grade was NOT tuned to (a plain solver's work, a
// foreign program's rating, what a player must do), so that bench/levels.sh
// can show whether the levels mean something: the measure's median should
// rise from easy to expert. docs/families/<family>.md says what each one is.
//
// Bench-only code: it may use a family's internals and outside programs.
//
// Thread safety: each measure is a pure function (any thread).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::bench {

struct EffortMeasure {
  std::string_view family;  // as registered ("secret-number")
  std::string_view what;    // the unit, for the table ("backtracking nodes")
  // The effort of solving `puzzle` (whose answer is `solution`); an error
  // when the puzzle cannot be read or an outside program is missing.
  Result<double> (*measure)(const nlohmann::json& puzzle, const nlohmann::json& solution);
};

// The measure for `family`, or null when it has none.
const EffortMeasure* FindEffort(std::string_view family);

// Adds a measure; each <family>.cc here registers its own at start-up:
//   const bool kRegistered = RegisterEffort({"zebra", "...", &ZebraEffort});
// The levels tool compiles every file of this folder (CMake glob), so a
// family's measure is one new file.
bool RegisterEffort(const EffortMeasure& measure);

}  // namespace foundry::bench
