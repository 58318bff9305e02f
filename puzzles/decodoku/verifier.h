// Independent re-check of a decodoku puzzle and solution.
//
// The solution's moves are replayed by code of its own here, on a plain
// copy of the numbers (each move: inside the grid, to a 4-neighbour, from a
// non-empty square), and must leave every square empty. Every cluster must
// sum to 0 mod 10 (what the seed's noise guarantees) and no cluster may span
// the grid (the seed's game-over test). Par is recomputed by the decoder and
// must equal the solution's length and claimed par; the difficulty is
// recomputed with it. Uniqueness is of par, not of the moves: many move
// lists clear a grid in par moves, any of them is a solution.
//
// Thread safety: reentrant.
#pragma once

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::decodoku {

// Returns the recomputed difficulty. Errors: InvalidArgument for malformed
// JSON (codec.h); FailedPrecondition when a cluster does not sum to 0 mod
// 10, a cluster spans the grid, a move is illegal, the moves do not clear
// the grid, or their number differs from the claimed or recomputed par.
Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution);

}  // namespace foundry::puzzles::decodoku
