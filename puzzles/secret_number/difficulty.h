// Difficulty of a secret-number puzzle, from the work the solver must do:
// find which rules matter (seed 000: "it becomes the job of the problem
// solver to determine which rules are 'useful'") and combine them.
//
// Figures, computed from the rules alone by Generate() and Verify() (each
// with its own code: bitsets or number-by-number masks):
//   rules          how many rules the puzzle has;
//   useful_rules   how many removed a candidate when added in order;
//   needed_rules   the size of the smallest subset of the rules that still
//                  leaves only the answer (a minimum hitting set: every other
//                  number must break a rule of the subset);
//   redundant_rules = rules - needed_rules: rules the solver can do
//                  without, noise to see through.
//
// score = 0.7 * min(1, (needed_rules - 1) / 5) + 0.3 * min(1, redundant_rules / 8)
// Combining rules is the main work (a single rule that pins the number is
// trivial; five that only pin it together are hard); noise adds to it.
// Rounded to three decimals; levels: score < 0.25 easy, < 0.5 medium,
// < 0.75 hard, else expert (docs/families/secret-number.md has the
// distribution).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "puzzles/family.h"

namespace foundry::puzzles::secret_number {

// details = {"rules", "useful_rules", "needed_rules", "redundant_rules"}.
// REQUIRES: 1 <= needed_rules <= rules.
Difficulty RateDifficulty(int rules, int useful_rules, int needed_rules);

// RateDifficulty()'s score and its level as an index into kLevels, without
// building the details (the aimed generator grades drafts it may drop).
// REQUIRES: as RateDifficulty().
double ScoreOf(int rules, int needed_rules);
int LevelIndexOf(double score);

// The size of the smallest set of rules hitting every mask: `masks` holds,
// for each number other than the answer, the rules it breaks (bit k for
// rule k). Branch and bound on the first mask not hit yet. REQUIRES: every
// mask is nonzero, rules <= 32 (the set of all rules hits them all).
int SmallestHittingSet(std::vector<uint32_t> masks, int rules);

}  // namespace foundry::puzzles::secret_number
