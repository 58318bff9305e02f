// Draws nonogram candidates from an Rng alone (same rng state, same
// candidate): a random image, its clues, the grade (grader.h), and for a
// puzzle line solving and probing leave open, a search for a second
// solution (search.h).
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::nonogram {

struct GenerateOptions {
  int width = 10, height = 10;
  int density = 55;  // percent of the image's cells filled, on average
  // The level asked for (an index into kLevels), -1 for any. The grader
  // stops at that level's stage (a puzzle that needs more is rejected at
  // once), and only expert (or any) pays for the search.
  int level = -1;
  // Search nodes before a candidate that probing leaves open is given up
  // ("search_limit"); Verify allows far more.
  int64_t max_nodes = 500;
  // Boards a quick search near the image may visit, before probing, to
  // reject a puzzle with a second solution early (grader.h); not used when
  // expert is asked for (its repair needs the second solution itself).
  int64_t ambiguity_nodes = 64;
  // Asked for expert: when the search finds a second solution, flip one
  // image cell where the two differ and grade again, up to this many times
  // (puzzles that need nested suppositions lie just on the unique side of
  // ambiguity, where random images rarely fall).
  int repairs = 12;
};

// Reasons: "trivial" (a blank or full image, or all rows alike), "level"
// (graded off the level asked for), "not_unique", "search_limit".
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::nonogram
