// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating,
// its deviation (uncertainty) and its volatility, updated after a rating
// period from the games played in it.
//
// Pure arithmetic: no I/O, no state, safe from any thread. Puzzle Foundry
// rates players and puzzles with it (docs/players.md): one play is one
// rating period in which the player plays the puzzle and the puzzle plays
// the player with the opposite result.
#pragma once

#include <vector>

namespace foundry::ratings {

// A Glicko-2 rating on the Glicko scale (1500-centred).
struct Rating {
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
};

// The system's constants. The defaults are lichess's puzzle trainer's
// (issue 32): new ratings 1500 / RD 500 / volatility 0.09, tau 0.75, RD kept
// in [45, 500], a change of rating clamped to +-700.
struct Glicko2Config {
  Rating initial;              // what a new player or puzzle starts at
  double tau = 0.75;           // constrains the change of volatility
  double min_deviation = 45;   // RD never falls below (ratings keep moving)
  double max_deviation = 500;  // RD never rises above
  double max_change = 700;     // |new rating - old rating| at most this
};

// One game of a rating period: the opponent's rating before the period and
// the score (1 win, 0.5 draw, 0 loss).
struct Game {
  Rating opponent;
  double score = 0;
};

// The rating after one period with `games` (Glickman's steps 1-8). An empty
// period only widens the deviation (step 6). No clamping: Glickman's
// example is reproduced exactly.
Rating UpdateUnclamped(const Rating& before, const std::vector<Game>& games, double tau);

// UpdateUnclamped with `config`'s tau, then the deviation kept in
// [min_deviation, max_deviation] and the rating change in +-max_change.
Rating Update(const Rating& before, const std::vector<Game>& games, const Glicko2Config& config);

// The expected score of `a` against `b` (probability that a wins), with b's
// deviation discounting the difference as Glicko-2 does.
double ExpectedScore(const Rating& a, const Rating& b);

}  // namespace foundry::ratings
