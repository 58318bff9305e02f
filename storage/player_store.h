// What the store keeps of players (docs/players.md): the types of
// Store::RecordPlayerPlay, GetPlayer and NextPuzzle. The rating model
// itself is the caller's (a RateFn): storage stores numbers, it does not
// know Glicko-2.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace foundry::storage {

// A rating as stored: Glicko-2's three numbers.
struct RatingState {
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
};

// A player's record in one family.
struct PlayerFigures {
  RatingState rating;
  uint64_t plays = 0;   // judged plays
  uint64_t solves = 0;  // judged plays solved
};

// One play as the coordinator hands it to the store, already judged.
struct PlayerPlay {
  std::string puzzle_id;
  double seconds = 0;
  bool solved = false;
  // True when `solved` is the family's judgement of `answer`; false for a
  // client-claimed play.
  bool judged = false;
  std::string answer;     // the answer text when judged
  std::string player_id;  // "" for none
  std::string play_id;    // "" for none
};

// The rating model the store applies under its lock: new ratings of the
// player and the puzzle from their ratings before one play and its result.
using RateFn = std::function<std::pair<RatingState, RatingState>(
    const RatingState& player, const RatingState& puzzle, bool solved)>;

// Where new players and puzzles start, and how ratings change.
struct RatingModel {
  RatingState new_player;
  // A puzzle never played starts at
  //   puzzle_center + puzzle_per_score * (generator score - 0.5)
  // with new_player's deviation and volatility: the generator's grade is a
  // prior, so a puzzle starts near where play will take it.
  double puzzle_center = 1500;
  double puzzle_per_score = 1000;
  RateFn rate;

  // The starting rating of a puzzle of generator score `score`.
  double InitialPuzzleRating(double score) const {
    return puzzle_center + puzzle_per_score * (score - 0.5);
  }
};

}  // namespace foundry::storage
