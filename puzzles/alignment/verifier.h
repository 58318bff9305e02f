// Independent re-check of an alignment puzzle and a solution layout.
//
// The layout is checked and scored by code of its own here (plain loops over
// the cells, not board.h's Score nor the greedy's incremental sums): its
// bricks in order are the column's, it has no trailing gap, fits the height
// and the gap limit, and reaches the target. The puzzle's base score is
// rescored the same way; greedy, target and best scores and the difficulty
// are recomputed by Analyze() and must equal what the puzzle claims.
// Uniqueness does not apply: any layout reaching the target solves it (the
// seed: "there is never one correct solution").
//
// Thread safety: reentrant.
#pragma once

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::alignment {

// Returns the recomputed difficulty. Errors: InvalidArgument for malformed
// JSON (codec.h); FailedPrecondition when a claimed score differs from the
// recomputed one, or the layout does not fit the board, its claimed score is
// wrong, or it stays below the target score.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

}  // namespace foundry::puzzles::alignment
