#include "puzzles/sudoku/generator.h"

#include "puzzles/sudoku/band_solver.h"
#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {

Candidate Generate(Rng& rng, const GenerateOptions& options) {
  const Grid solution = RandomSolution(options.shape, rng);
  RemovalOptions removal;
  removal.symmetric = options.symmetric;
  removal.minimal = options.minimal;
  removal.max_check_nodes = options.max_check_nodes;
  // The highest level the grader need try: asked for a level, the ones
  // above it are never tried (a puzzle that needs one comes back capped).
  const int cap = options.level >= 0 ? options.level : 3;
  Grid scratch;
  // Outside the `if`: the removal hook below refers to it after the block.
  const bool nine = options.shape == Shape{3, 3};
  if (cap < 3) {
    // Aim at the level (generator.h): a removal stands only while logic up
    // to the level still solves the puzzle. That alone would prove the
    // solution unique; the uniqueness search still comes first (solver.h)
    // because it is the cheaper of the two and turns most removals away.
    removal.allow = [&](const uint8_t* grid) {
      // Propagation (singles, locked candidates: band_solver.h) fills most
      // of these puzzles, medium at most, for a fraction of a grade. (Asked
      // for easy, it would only add to the grade most removals need.)
      if (nine && cap >= 1 && band::SolvesWithoutSearch(grid)) return true;
      scratch.assign(grid, grid + options.shape.cells());
      const Grade g = GradePuzzle(options.shape, scratch, cap);
      return g.level <= cap && !g.contradiction;
    };
  }
  const Grid puzzle = RemoveClues(options.shape, solution, rng, removal);
  if (puzzle.empty()) return Rejected{"search_limit"};
  const Grade grade = GradePuzzle(options.shape, puzzle, cap);
  if (options.level >= 0 && grade.level != options.level) return Rejected{"level"};
  Accepted a;
  a.puzzle = PuzzleJson(options.shape, puzzle);
  a.solution = SolutionJson(solution);
  a.difficulty = grade.ToDifficulty();
  return a;
}

}  // namespace foundry::puzzles::sudoku
