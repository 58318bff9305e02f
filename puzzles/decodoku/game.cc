#include "puzzles/decodoku/game.h"

#include "puzzles/decodoku/decoder.h"

namespace foundry::puzzles::decodoku {

std::vector<Move> GreedyPolicy(const Grid& grid) { return GreedyDecode(grid); }

GameResult PlayGame(Rng& rng, const GameOptions& o, const Policy& policy, int rounds) {
  GameResult result;
  result.grid = Grid::Empty(o.size);
  for (int round = 1; round <= rounds; ++round) {
    AddNoise(rng, result.grid, 10 * o.noise_weight);
    result.rounds_played = round;
    if (round == rounds) break;
    const std::vector<Move> plan = policy ? policy(result.grid) : std::vector<Move>{};
    for (size_t k = 0; k < plan.size() && static_cast<int>(k) < o.moves_per_round; ++k) {
      if (!IsLegalMove(result.grid, plan[k])) break;
      ApplyMove(result.grid, plan[k]);
      ++result.moves_played;
    }
    if (IsLost(result.grid)) {
      result.lost = true;
      break;
    }
  }
  return result;
}

}  // namespace foundry::puzzles::decodoku
