// The rating constants of players and puzzles (docs/players.md, "The rating
// model"): Glicko-2's constants and the default grade -> rating mapping of
// new puzzles, their flags (foundry-coordinator), their checks, and the
// storage::RatingModel the store applies.
#pragma once

#include "common/status.h"
#include "ratings/glicko2.h"
#include "storage/player_store.h"

// CLI11's App, declared only: its header costs every file that includes
// this one ~7 s to compile, and only the flags' definitions need it.
namespace CLI {
class App;
}  // namespace CLI

namespace foundry::coordinator {

// Issue 32's defaults: lichess's puzzle trainer's Glicko-2 constants, and
// new puzzles at 1500 + 1000 * (score - 0.5) until a refit says better.
struct RatingSettings {
  ratings::Glicko2Config glicko;
  // The mapping of families without a fitted one (RefitRatings).
  storage::GradeMapping grade;
  // A never-played puzzle's starting deviation (storage::RatingModel::
  // new_puzzle_deviation); the default is docs/players.md's simulator choice.
  double new_puzzle_deviation = 200;
  // NextPuzzle draws among this many nearest unplayed puzzles
  // (storage::RatingModel::next_nearest; 1: always the nearest).
  int next_nearest = 8;
  // ...never-judged puzzles within this many rating points of the target
  // first (storage::RatingModel::next_new_window; 0: no preference).
  double next_new_window = 50;
  // Rate judged plays of puzzles that were not served to the player (opened
  // by id); false by default (storage::RatingModel::rate_unserved).
  bool rate_unserved = false;
};

// Ok, or InvalidArgument naming the flag of the first value that cannot
// work (a tau <= 0, a deviation range upside down, a new deviation outside
// it, a falling grade mapping, anything not finite, a next-puzzle draw
// among fewer than 1 or more than kMaxNextNearest puzzles, a never-judged
// window outside 0..kMaxNextNewWindow).
Status CheckRatingSettings(const RatingSettings& settings);

// NextPuzzle looks at about as many puzzles as it draws among, under the
// store's players lock: a bound keeps one call cheap.
inline constexpr int kMaxNextNearest = 1000;
// The widest never-judged window, in rating points (--next-puzzle-new-window).
inline constexpr double kMaxNextNewWindow = 1000;

// Glicko-2 with `settings` as the store applies it: one play is one rating
// period for the player and for the puzzle, each against the other's rating
// before the play. REQUIRES: CheckRatingSettings(settings).ok().
storage::RatingModel MakeRatingModel(const RatingSettings& settings);

// MakeRatingModel of the defaults.
storage::RatingModel DefaultRatingModel();

// Adds the flags of every field of `settings` to `app` (--new-rating,
// --rating-tau, ..., --puzzle-rating-per-score, --new-puzzle-rating-deviation,
// --next-puzzle-nearest, --rate-unserved-plays), their
// defaults shown.
// Check the result with CheckRatingSettings after parsing.
void AddRatingFlags(CLI::App& app, RatingSettings& settings);

}  // namespace foundry::coordinator
