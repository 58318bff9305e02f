// What the store keeps of players (docs/players.md): the types of
// Store::RecordPlayerPlay, GetPlayer and NextPuzzle. The rating model
// itself is the caller's (a RateFn): storage stores numbers, it does not
// know Glicko-2.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foundry/v1/puzzle.pb.h"

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

// A scored answer (families whose answers are better or worse, e.g.
// alignment): the answer's points and the puzzle's figures beside them.
// The store keeps the puzzle's best (highest score, first to reach it).
struct PlayScore {
  double score = 0;
  double target = 0;
  double greedy = 0;
  double best = 0;
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
  // The answer's score when the family scores answers (judged plays only).
  std::optional<PlayScore> score;
  // Days ("YYYY-MM-DD") whose puzzle of the day counts as served to every
  // player: a judged play of it is rated like one NextPuzzle served (the
  // coordinator passes the play's UTC day and the day before).
  std::vector<std::string> daily_days;
  // The puzzle's record as the caller has just read it (the coordinator
  // reads it to judge the answer), so that the store does not read it
  // again; nullopt: the store reads it. Its play fields are not used.
  std::optional<foundry::v1::Puzzle> record;
};

// The rating model the store applies under its lock: new ratings of the
// player and the puzzle from their ratings before one play and its result.
using RateFn = std::function<std::pair<RatingState, RatingState>(
    const RatingState& player, const RatingState& puzzle, bool solved)>;

// A family's grade -> rating mapping: a puzzle never judged starts at
//   center + per_score * (generator score - 0.5).
// per_score >= 0 keeps the initial rating monotone in the score, which
// NextPuzzle relies on to find never-judged puzzles through by_score.
struct GradeMapping {
  double center = 1500;
  double per_score = 1000;

  // The starting rating of a puzzle of generator score `score`.
  double Rating(double score) const { return center + per_score * (score - 0.5); }
};

// A mapping fitted from plays, as the store keeps it per family.
struct FittedGradeMapping {
  GradeMapping mapping;
  uint64_t puzzles = 0;        // puzzles the fit used
  int64_t fitted_unix_ms = 0;  // when
};

// Where new players and puzzles start, and how ratings change.
struct RatingModel {
  RatingState new_player;
  // A puzzle never played starts at grade.Rating(generator score) with
  // new_puzzle_deviation and new_player's volatility: the generator's grade is a
  // prior, so a puzzle starts near where play will take it. A family with
  // a fitted mapping in the store (Store::PutGradeMappings) uses that one.
  GradeMapping grade;
  // A never-played puzzle's deviation: how far its grade's rating may be
  // from where play takes it, not a new player's (who is unknown), so the
  // first plays refine the grade's rating instead of throwing it away.
  double new_puzzle_deviation = 500;
  // NextPuzzle draws uniformly among this many nearest puzzles the player
  // has not had (1: always the nearest), so players of similar ratings
  // spread over the pool instead of walking the same puzzles.
  int next_nearest = 1;
  // NextPuzzle draws among never-judged puzzles within this many rating
  // points of the target first, when it finds any among the first 4K
  // by_score entries it looks at (0: no preference).
  double next_new_window = 0;
  RateFn rate;
  // False (lichess's rule): a judged play is rated only when the puzzle was
  // served to the player (NextPuzzle, or a puzzle of the day of
  // PlayerPlay::daily_days); a puzzle opened by id is played unrated, so
  // nobody picks the puzzles that rate them up. True: every first attempt
  // is rated (a game server that chooses its players' puzzles itself).
  bool rate_unserved = false;
};

// A puzzle with a rating record, as Store::ForEachRatedPuzzle visits it.
struct RatedPuzzle {
  std::string id;
  std::string family;
  double score = 0;  // the generator's
  RatingState rating;
  uint64_t judged_plays = 0;
};

}  // namespace foundry::storage
