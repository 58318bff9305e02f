// Generation of decodoku puzzles (seed 004): the game's position after
// `rounds` rounds of noise (with the greedy player's moves in between, see
// game.h), accepted when not lost and when par lies in [min_moves,
// max_moves].
//
// Thread safety: reentrant; uses only `rng`.
#pragma once

#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {

struct GenerateOptions {
  int size = 8;          // kMinSize..kMaxSize
  int noise_weight = 6;  // per round (the seed's 6)
  int rounds = 1;        // noise rounds; the player moves 5 times between two
  int min_moves = 4;     // reject a par below this
  int max_moves = 30;    // reject a par above this
};

// One candidate from `rng` (and nothing else). Rejection reasons: "lost"
// (the game was lost before the last round, or a cluster spans the final
// grid), "too_few_moves", "too_many_moves". REQUIRES: options within range.
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::decodoku
