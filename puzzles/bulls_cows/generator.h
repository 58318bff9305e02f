// Generation of bulls-cows puzzles: draw a secret among the allowed codes;
// draw allowed guesses other than the secret, keep each one whose answer
// removes a candidate, until the secret is the only code consistent with
// every clue; with `minimal`, then drop each clue (in drawn order) whose
// removal still leaves the secret alone, so every clue left is needed;
// accept when the clue count lies in [min_clues, max_clues].
//
// Thread safety: reentrant; shares only the immutable Universe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "puzzles/bulls_cows/codes.h"
#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::bulls_cows {

// Draws allowed for one clue before the candidate is rejected as
// "no_clue_fits" (a guard; a useful guess is found in a few draws).
inline constexpr int kMaxDrawsPerClue = 1000;

struct GenerateOptions {
  int length = 4;  // kMinLength..kMaxLength
  bool leading_zero = false;
  bool minimal = true;
  int min_clues = 3;  // 1..kCluesLimit
  int max_clues = 8;  // min_clues..kCluesLimit
};

// A puzzle before it becomes JSON: guesses and scores by universe index.
struct Draft {
  int length = 4;
  bool leading_zero = false;
  uint32_t secret = 0;
  std::vector<uint32_t> guesses;
  std::vector<int> scores;
};

// One candidate from `rng` (and nothing else). Rejection reasons:
// "too_many_clues" (more than max_clues remain, or kCluesLimit were drawn
// without pinning the secret), "too_few_clues" (fewer than min_clues
// remain), "no_clue_fits" (kMaxDrawsPerClue useless draws in a row).
// REQUIRES: `options` within the ranges above.
Candidate Generate(Rng& rng, const GenerateOptions& options);

// For every allowed code of `u`, the clues of `d` it breaks (bit k: clue k).
std::vector<uint32_t> BreakMasks(const Universe& u, const Draft& d);

// The tie-break keys of RateDifficulty() for a guess and a score.
inline uint64_t ClueKey(uint64_t guess_value, int score) {
  return guess_value * 64 + static_cast<uint64_t>(score);
}

}  // namespace foundry::puzzles::bulls_cows
