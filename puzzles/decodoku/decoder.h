// Decoders: a move list that clears a decodoku grid, and par, its length.
//
// Clearing is always possible when every cluster sums to 0 mod 10 (gather
// the numbers); the question is how few moves it takes. Two decoders:
//   * Exact: IDA* over grids with an admissible bound. Every number must end
//     up merged with another original number, so the moves that carry them
//     form, per merged group, a connected walk through all its squares, of
//     at least half the sum of each square's distance to its nearest other
//     number (an Euler tour argument); h = ceil(sum_v d(v) / 2). Searches
//     never undo the previous move, and of two consecutive moves on disjoint
//     squares (which commute) keep only one order. Started with the greedy's
//     length as an upper bound: when no shorter clearing exists, the greedy's
//     moves are optimal. Gives up after `node_budget` nodes.
//   * Greedy matching: repeatedly take the two nearest numbers (ties: a pair
//     that sums to 0 mod 10, then the lowest squares in row-major order) and
//     step the first one toward the second (x first, then y). Always clears.
// Decode() runs the greedy, then the exact search; par comes from the exact
// search when it finished ("exact"), else from the greedy ("greedy").
// Deterministic.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "puzzles/decodoku/grid.h"

namespace foundry::puzzles::decodoku {

// Generation and Verify() both use it (par is recomputed on verify), so
// never change it without accepting that stored pars may stop verifying.
inline constexpr int64_t kExactNodeBudget = 300000;

struct Decoding {
  std::vector<Move> moves;  // clears the grid; par = moves.size()
  bool exact = false;       // par proved optimal
  int greedy_moves = 0;     // the greedy decoder's length
  int lower_bound = 0;      // h of the start grid
  int64_t nodes = 0;        // exact-search nodes (up to the budget)

  int par() const { return static_cast<int>(moves.size()); }
  std::string_view decoder() const { return exact ? "exact" : "greedy"; }
};

// The greedy decoder alone. REQUIRES: the values sum to 0 mod 10.
std::vector<Move> GreedyDecode(const Grid& grid);

// The admissible lower bound on the moves that clear `grid`.
int LowerBound(const Grid& grid);

// Greedy, then exact within `node_budget`. REQUIRES: as GreedyDecode.
Decoding Decode(const Grid& grid, int64_t node_budget = kExactNodeBudget);

}  // namespace foundry::puzzles::decodoku
