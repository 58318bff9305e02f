#include "puzzles/sudoku/generator.h"

#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {

Candidate Generate(Rng& rng, const GenerateOptions& options) {
  const Grid solution = RandomSolution(options.shape, rng);
  RemovalOptions removal;
  removal.symmetric = options.symmetric;
  removal.minimal = options.minimal;
  const Grid puzzle = RemoveClues(options.shape, solution, rng, removal);
  // Asked for a level, the grader need not try the techniques above it.
  const Grade grade = GradePuzzle(options.shape, puzzle, options.level >= 0 ? options.level : 3);
  if (options.level >= 0 && grade.level != options.level) return Rejected{"level"};
  Accepted a;
  a.puzzle = PuzzleJson(options.shape, puzzle);
  a.solution = SolutionJson(solution);
  a.difficulty = grade.ToDifficulty();
  return a;
}

}  // namespace foundry::puzzles::sudoku
