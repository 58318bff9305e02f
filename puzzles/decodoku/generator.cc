#include "puzzles/decodoku/generator.h"

#include "puzzles/decodoku/analysis.h"
#include "puzzles/decodoku/codec.h"
#include "puzzles/decodoku/game.h"

namespace foundry::puzzles::decodoku {

Candidate Generate(Rng& rng, const GenerateOptions& o) {
  GameOptions game;
  game.size = o.size;
  game.noise_weight = o.noise_weight;
  const GameResult played = PlayGame(rng, game, GreedyPolicy, o.rounds);
  if (played.lost || IsLost(played.grid)) return Rejected{"lost"};
  // A cheap filter first: par lies between the bound and the greedy's length.
  if (LowerBound(played.grid) > o.max_moves) return Rejected{"too_many_moves"};
  const Analysis a = Analyze(played.grid);
  if (a.decoding.par() < o.min_moves) return Rejected{"too_few_moves"};
  if (a.decoding.par() > o.max_moves) return Rejected{"too_many_moves"};
  Accepted out;
  out.puzzle = PuzzleJson(played.grid);
  out.solution = SolutionJson(a.decoding.moves);
  out.difficulty = a.difficulty;
  return out;
}

}  // namespace foundry::puzzles::decodoku
