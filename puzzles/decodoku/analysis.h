// What the decodoku family derives from a position: its decoding (par) and
// difficulty. Generation and Verify() both call Analyze(), so a stored
// puzzle's par and grade are recomputed exactly.
//
// Difficulty, from the decoders' work (one table, here). Two counts of
// what a player must plan beyond the obvious:
//   detours      2 * par - numbers: each move clears at most two numbers
//                (a pair that sums to 10), so this counts the moves that do
//                not: a merge that leaves a number (+1) or a step onto an
//                empty square (+2). 0 when the grid is pairs to clear.
//   greedy_gap   greedy_moves - par: how much the obvious play (nearest
//                numbers first) wastes, i.e. how much planning pays
//                (points = detours + greedy_gap).
// score = points / 4 up to 3 points (0, 0.25, 0.5, 0.75: one level per
// point), then each further point halves the distance to 1 (4 -> 0.875,
// 5 -> 0.938, ...), rounded to three decimals; levels: the quarters (< 0.25
// easy, < 0.5 medium, < 0.75 hard, else expert). Fitted to the default
// size, where par is almost always 6 and only these counts vary (see
// docs/families/decodoku.md, "Difficulty").
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
// "lower_bound", "numbers", "clusters", "detours", "search_nodes"}.
Difficulty RateDifficulty(const Grid& grid, const Decoding& decoding);

// REQUIRES: every cluster of `grid` sums to 0 mod 10.
Analysis Analyze(const Grid& grid);

}  // namespace foundry::puzzles::decodoku
