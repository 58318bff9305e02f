// The observed difficulty: the generator's score as a prior, updated by what
// players did (docs/store.md, "Observed difficulty").
//
// A puzzle's failure probability gets a Beta prior worth kPriorPlays plays
// whose mean is the generator's score; each recorded play adds one success
// or one failure. The observed score is the posterior mean failure
// probability: with no plays it is exactly the generator's score, and it
// moves towards the players' failure rate as plays accumulate. Seed 000
// sorted puzzles into easy/difficult/challenging from raw counts, which
// swings wildly on the first few plays; the prior keeps one lucky player from
// re-grading a puzzle.
#pragma once

#include <cstdint>

#include "foundry/v1/puzzle.pb.h"
#include "storage/play_counts_merge.h"

namespace foundry::storage {

// How many plays the generator's estimate is worth.
inline constexpr double kPriorPlays = 10.0;

struct Observed {
  double score = 0;       // 0..1, the posterior failure probability
  double solve_rate = 1;  // 1 - score
  uint64_t plays = 0;     // solved + failed (saturating)
  double mean_solve_seconds = 0;
};

// The observed difficulty of a puzzle with generator score `score` (clamped
// to [0, 1]) after `plays`.
Observed Observe(double score, const PlayCounts& plays);

// Sets `puzzle`'s plays and observed fields (observed.level excepted) from
// `plays` and the generator's score `score`: what every read of a puzzle
// reports.
void SetPlayFields(double score, const PlayCounts& plays, foundry::v1::Puzzle& puzzle);

}  // namespace foundry::storage
