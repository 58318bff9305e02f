// Generation of zebra puzzles, the seed's process made fast:
//   1. a random solution (one random permutation per category);
//   2. random true clues are drawn and kept when they narrow the propagated
//      domains, until propagation alone places every item: a random subset
//      of the true clues that already pins the solution (the hint;
//      drawing from all true clues and removing one by one is far slower);
//   3. with `minimal`, the seed's step: in random order, each clue whose
//      removal keeps the solution unique (solver.h counting to two) goes,
//      until none can go;
//   4. the grade by the solver's work (solver.h SolveReport: propagation
//      rounds, refuted trials, search), filtered by `level`; asked for a
//      level, the grader stops as soon as the puzzle is known to be above it.
//
// Thread safety: reentrant.
#pragma once

#include <vector>

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/zebra/model.h"
#include "puzzles/zebra/solver.h"

namespace foundry::puzzles::zebra {

struct GenerateOptions {
  int houses = 5;      // kMinHouses..kMaxHouses
  int categories = 5;  // kMinCategories..kMaxCategories
  bool minimal = true;
  int level = -1;  // -1 any, else the kLevels index a puzzle must grade at
};

// Clues drawn before a candidate is rejected as "no_clue_fits" (a guard; a
// pinning set is found long before).
inline constexpr int kMaxDraws = 5000;

// A puzzle before it is turned into JSON.
struct Draft {
  int houses = 0, categories = 0;
  std::vector<Clue> clues;
  Placement solution{};
  SolveReport report;
};

// Steps 1-4 without the JSON: true with *out filled, or false with *reason
// set to "level" or "no_clue_fits".
bool Build(Rng& rng, const GenerateOptions& options, Draft* out, const char** reason);

// One candidate from `rng` alone (Build, then the JSON shapes).
Candidate Generate(Rng& rng, const GenerateOptions& options);

// The difficulty of a solver report (level name, score, details).
Difficulty RateDifficulty(const SolveReport& report, int clues);

}  // namespace foundry::puzzles::zebra
