// The nonogram proof: checks a puzzle and its solution without the
// generator's solver. The solution must show every clue, and a search of
// its own (placement_solver.h) must find no second grid; the grade is then
// recomputed from the clues (grader.h).
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::nonogram {

// Search nodes Verify spends before it gives up on a puzzle (far above what
// the generator allows itself, so whatever it accepted verifies).
inline constexpr int64_t kVerifyMaxNodes = 200'000;

// Family::Verify: InvalidArgument for malformed JSON; FailedPrecondition
// for a solution that does not show the clues, a second solution, or a
// puzzle the search cannot settle within kVerifyMaxNodes; the grade
// otherwise.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

}  // namespace foundry::puzzles::nonogram
