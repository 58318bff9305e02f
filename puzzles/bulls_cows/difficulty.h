// Difficulty of a bulls-cows puzzle: how far each clue narrows the
// candidates, measured along the order a careful solver would use.
//
// Input: for every code that could be the secret (all allowed codes of the
// puzzle's length), the set of clues it breaks, as a bitmask over the clues
// (the answer breaks none). The solver applies first the clue that leaves
// the fewest candidates, then of the rest the one that leaves the fewest
// together with it, and so on (ties: the clue with the smaller key, so the
// order of the clues in the JSON does not matter). That gives the chain
// c_1 >= c_2 >= .. >= c_m = 1 of candidates left after each clue, and
//   work  = sum over t < m of ln(c_t) / ln(N)       (N: allowed codes)
// the candidates the solver still has to keep in mind after each clue, each
// counted in "universes" on a log scale. A clue that narrows far (4 cows:
// 23 candidates left) leaves little work; many weak clues that pin the
// secret only together leave much.
//
// score = clamp((work - kWorkFloor) / kWorkSpan, 0, 1), rounded to three
// decimals; levels below 0.25 easy, 0.5 medium, 0.75 hard, else expert, i.e.
// work below 0.85, 1.2, 1.55 (floor and span set from the work of 10,000
// default puzzles, docs/families/bulls-cows.md). Work below kWorkFloor
// (0.5) means one or two clues nearly give the secret away. details:
// clues, candidates_after (the chain), work.
//
// Both Generate() and Verify() call RateDifficulty(), with masks computed
// by their own scoring code.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <span>

#include "puzzles/family.h"

namespace foundry::puzzles::bulls_cows {

inline constexpr double kWorkFloor = 0.5;
inline constexpr double kWorkSpan = 1.4;

// masks: one per allowed code, bit k set when the code breaks clue k.
// keys: one per clue, distinct, independent of clue order (e.g. guess
// value * 64 + score). REQUIRES: keys.size() <= 32; exactly one mask is 0.
Difficulty RateDifficulty(std::span<const uint32_t> masks, std::span<const uint64_t> keys);

}  // namespace foundry::puzzles::bulls_cows
