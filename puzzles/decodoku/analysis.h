// What the decodoku family derives from a position: its decoding (par) and
// difficulty. Generation and Verify() both call Analyze(), so a stored
// puzzle's par and grade are recomputed exactly.
//
// Difficulty, from the decoders' work (one table, here):
//   par          the fewest moves known to clear the grid;
//   greedy_gap   greedy_moves - par: how much the obvious play (nearest
//                numbers first) wastes, i.e. how much planning pays.
// score = 0.75 * min(1, (par - 2) / 16) + 0.25 * min(1, greedy_gap / 4),
// rounded to three decimals; levels: < 0.25 easy, < 0.5 medium, < 0.75
// hard, else expert.
//
// Thread safety: pure functions.
#pragma once

#include "puzzles/decodoku/decoder.h"
#include "puzzles/decodoku/grid.h"
#include "puzzles/family.h"

namespace foundry::puzzles::decodoku {

struct Analysis {
  Decoding decoding;
  Difficulty difficulty;
};

// details = {"par", "decoder" ("exact" | "greedy"), "greedy_moves",
// "lower_bound", "numbers", "clusters", "search_nodes"}.
Difficulty RateDifficulty(const Grid& grid, const Decoding& decoding);

// REQUIRES: every cluster of `grid` sums to 0 mod 10.
Analysis Analyze(const Grid& grid);

}  // namespace foundry::puzzles::decodoku
