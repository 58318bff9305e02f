// Generation of alignment boards (seed 001): columns are mutated copies of a
// random ancestor, so real alignments exist; the seed's greedy and
// acceptance decide; the best score is searched beyond the seed.
//
// The ancestor has `height` bricks of `colors` colours; row r's guide is
// the ancestor's colour there plus, one time in four, a second colour. Each
// column draws its length n in [min_len, max_len], deletes height - n random
// bricks of a copy of the ancestor (deletions: the gaps a good layout puts
// back) and substitutes each remaining brick with another colour one time in
// six (substitutions: mismatches no layout repairs).
//
// Thread safety: reentrant; uses only `rng`.
#pragma once

#include <string_view>
#include <variant>

#include "puzzles/alignment/analysis.h"
#include "puzzles/alignment/board.h"
#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::alignment {

struct GenerateOptions {
  int columns = 6;          // W, kMinColumns..kMaxColumns
  int height = 8;           // H, kMinHeight..kMaxHeight
  int min_len = 4;          // bricks per column, 1..max_len
  int max_len = 6;          // min_len..height
  int colors = 4;           // 2..4, the first letters of ACGT
  int row_bonus = 2;        // multiplier of a row where every column matches
  int max_gaps = 0;         // gaps the player may place; 0 = only the height limits
  int min_improvement = 4;  // greedy - base must reach this
  int min_gap_columns = 2;  // the greedy's gaps span this many columns
  int min_gap_rows = 2;     // ... and this many rows
};

// A random board (no acceptance test). REQUIRES: options within range.
Board RandomBoard(Rng& rng, const GenerateOptions& options);

// The seed's acceptance test of a greedy result: "" when accepted, else the
// rejection reason: "small_improvement" or "gaps_not_varied".
std::string_view AcceptanceFailure(const GreedyResult& greedy, const GenerateOptions& options);

// The accepted candidate for an analysed board: puzzle and solution JSON (the
// best layout found), difficulty.
Accepted Materialize(const Board& board, const Analysis& analysis);

// One candidate from `rng` (and nothing else). Rejections as
// AcceptanceFailure(). REQUIRES: options within range.
Candidate Generate(Rng& rng, const GenerateOptions& options);

}  // namespace foundry::puzzles::alignment
