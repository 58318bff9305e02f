// Difficulty of a secret-number puzzle (a simple first version; a later issue
// will refine it, e.g. with play statistics as the seed suggests).
//
// Both Generate() and Verify() call RateDifficulty() with figures from
// replaying the rules in order from the set of all numbers:
//   rules                  how many rules the puzzle has;
//   useful_rules           how many of them removed at least one candidate at
//                          the moment they were added (the others are noise
//                          the solver must recognise, as the seed says);
//   candidates_before_last how many candidates were left just before the last
//                          rule, i.e. how many the last rule had to split.
//
// score = 0.75 * min(1, (useful_rules - 1) / 7)
//       + 0.25 * log(candidates_before_last) / log(all numbers)
// Each useful rule is one more constraint to combine, so the first term
// dominates; the second grows with the number of candidates the solver must
// still track when the last rule applies. Both terms are monotone, the score
// lies in [0, 1] and is rounded to three decimals. Levels: score < 0.25 easy,
// < 0.5 medium, < 0.75 hard, else expert.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>

#include "puzzles/family.h"

namespace foundry::puzzles::secret_number {

// details = {"rules": rules, "useful_rules": useful_rules}.
// REQUIRES: total_numbers >= 2.
Difficulty RateDifficulty(int rules, int useful_rules, int64_t candidates_before_last,
                          int64_t total_numbers);

}  // namespace foundry::puzzles::secret_number
