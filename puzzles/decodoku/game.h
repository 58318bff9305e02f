// A faithful simulation of the Decodoku game loop (seed 004): noise of
// weight `noise_weight` (6), then the player's `moves_per_round` (5) moves,
// and so on. Game over when, after the player's moves, a cluster spans the
// grid (noise may make a cluster span; the player still gets the moves to
// fix it). Puzzles after `rounds` > 1 come from here: the grid right after
// the last round's noise.
//
// Thread safety: reentrant; uses only its Rng and the policy.
#pragma once

#include <functional>
#include <vector>

#include "puzzles/decodoku/grid.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {

struct GameOptions {
  int size = 8;             // kMinSize..kMaxSize
  int noise_weight = 6;     // per round, in whole units (the seed's 6)
  int moves_per_round = 5;  // the player's moves between two noise rounds
};

// The player: the moves to make on `grid` (only the first moves_per_round
// are played, and a move that is not legal ends the player's turn).
using Policy = std::function<std::vector<Move>(const Grid& grid)>;

// The greedy decoder's plan (decoder.h), a reasonable player.
std::vector<Move> GreedyPolicy(const Grid& grid);

struct GameResult {
  Grid grid;              // after the last noise played (or the losing moves)
  int rounds_played = 0;  // noise rounds drawn
  bool lost = false;      // game over after the player's moves of a round
  int moves_played = 0;   // player's moves in all
};

// Plays until `rounds` noise rounds have been drawn or the game is lost,
// whichever comes first. After round `rounds` the player does not move: the
// result's grid is the position the player now faces. REQUIRES: rounds >= 1.
GameResult PlayGame(Rng& rng, const GameOptions& options, const Policy& policy, int rounds);

}  // namespace foundry::puzzles::decodoku
