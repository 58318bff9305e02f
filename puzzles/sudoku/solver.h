// The cell-mask sudoku solver: bitmask candidates, naked and hidden singles
// to a fixpoint, then depth-first search on a cell with the fewest
// candidates. It counts solutions up to a limit (two answers "unique?"),
// fills random grids and removes clues. Each shape is its own template
// instance (solver.cc), so the 9x9 loops have constant bounds.
//
// Who checks whom: for 9x9 grids RandomSolution and the removal checks of
// RemoveClues run on band_solver.h (faster there), and this solver is
// Verify()'s independent re-count; for the other shapes the generator runs
// on this solver and Verify() re-counts with dlx.h (sudoku.cc). Verify()
// counts only puzzles the grader's logic does not fill: a grid filled by
// logic alone has one solution.
//
// Thread safety: pure functions over their arguments; the per-shape tables
// are built once (thread-safe static initialisation) and then only read.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "puzzles/rng.h"
#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

// Solutions of `givens`, counted up to `limit` (>= 1). When `first` is not
// null and a solution exists, *first receives the first one found.
// REQUIRES: givens.size() == shape.cells(), values 0..N.
int CountSolutions(const Shape& shape, const Grid& givens, int limit, Grid* first = nullptr);

// Solutions of the grid whose cells may take only the digits of
// `candidates` (per cell, bit d for digit d + 1; a given or placed cell has
// its one bit), counted up to `limit` (>= 1). A grid that logic has
// narrowed (grader.h: Grade::candidates) has the solutions of its puzzle,
// since every step of that logic removes only digits no solution takes.
// REQUIRES: candidates.size() == shape.cells().
int CountSolutionsWithin(const Shape& shape, const std::vector<uint16_t>& candidates, int limit);

// A uniformly shuffled start (a random first box row band) completed by the
// search with digits tried in random order: a random complete grid.
Grid RandomSolution(const Shape& shape, Rng& rng);

struct RemovalOptions {
  // Remove cells in 180-degree pairs (cell i with cells-1-i).
  bool symmetric = false;
  // true: try every cell (or pair) once, in random order, keeping it only
  // when its removal would admit a second solution; the result is minimal
  // (no clue, or with `symmetric` no pair, can go). false: stop at the first
  // cell whose removal would admit a second solution.
  bool minimal = true;
  // When set, a removal that keeps the solution unique stands only if
  // allow(grid), called with the cells (or pair) already emptied, says so;
  // a refused removal counts as one whose clue must stay (and with
  // `minimal` false ends the loop like one). The generator aims at a level
  // with it (generator.h). It is not asked about a removal the remaining
  // clues force back by a naked or a hidden single: placing that single
  // gives back the puzzle before the removal, so no logic grade changes.
  // Null: every unique removal stands (the plain minimal puzzle).
  std::function<bool(const uint8_t* grid)> allow;
  // Nodes one uniqueness search of the 12x12 and 16x16 shapes may visit
  // before RemoveClues gives the puzzle up (-1: no limit; the 9x9 search
  // never needs one). A few removals of a sparse 16x16 draft can take the
  // search millions of nodes, seconds, to settle; a fresh draft is cheaper.
  int64_t max_check_nodes = -1;
};

struct RemovalStats {
  int checks = 0;   // uniqueness searches made
  int swaps = 0;    // removals refused by a clue-free swap cycle (swap_cycles.h), no search
  int asked = 0;    // calls of RemovalOptions::allow
  int refused = 0;  // of those, the removals it refused
};

// A puzzle whose only solution is `solution`, made by removing clues from it
// in an order drawn from `rng`; empty when a uniqueness search ran past
// options.max_check_nodes.
// REQUIRES: IsCompleteSolution(shape, solution).
Grid RemoveClues(const Shape& shape, const Grid& solution, Rng& rng, const RemovalOptions& options,
                 RemovalStats* stats = nullptr);

// True when removing each clue of `puzzle` alone (or, with `symmetric`, each
// 180-degree pair) would admit a second solution. REQUIRES: `puzzle` unique.
bool IsMinimal(const Shape& shape, const Grid& puzzle, bool symmetric);

}  // namespace foundry::puzzles::sudoku
