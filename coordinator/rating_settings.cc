#include "coordinator/rating_settings.h"

#include <cmath>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace foundry::coordinator {
namespace {

ratings::Rating ToRating(const storage::RatingState& s) {
  return {s.rating, s.deviation, s.volatility};
}
storage::RatingState ToState(const ratings::Rating& r) {
  return {r.rating, r.deviation, r.volatility};
}

}  // namespace

Status CheckRatingSettings(const RatingSettings& s) {
  const ratings::Glicko2Config& g = s.glicko;
  const auto bad = [](std::string_view flag, std::string_view want, double got) {
    return Status::InvalidArgument(fmt::format("{} must be {}, got {}", flag, want, got));
  };
  if (!std::isfinite(g.initial.rating))
    return bad("--new-rating", "a finite number", g.initial.rating);
  if (!(g.initial.volatility > 0 && g.initial.volatility <= 1)) {
    return bad("--new-rating-volatility", "in (0, 1]", g.initial.volatility);
  }
  if (!(g.tau > 0 && std::isfinite(g.tau))) return bad("--rating-tau", "> 0", g.tau);
  if (!(g.min_deviation > 0 && std::isfinite(g.min_deviation))) {
    return bad("--rating-deviation-min", "> 0", g.min_deviation);
  }
  if (!(g.max_deviation >= g.min_deviation && std::isfinite(g.max_deviation))) {
    return Status::InvalidArgument(
        fmt::format("--rating-deviation-min ({}) must not be above --rating-deviation-max ({})",
                    g.min_deviation, g.max_deviation));
  }
  if (!(g.initial.deviation >= g.min_deviation && g.initial.deviation <= g.max_deviation)) {
    return Status::InvalidArgument(fmt::format(
        "--new-rating-deviation must be within --rating-deviation-min..--rating-deviation-max "
        "({}..{}), got {}",
        g.min_deviation, g.max_deviation, g.initial.deviation));
  }
  if (!(s.new_puzzle_deviation >= g.min_deviation && s.new_puzzle_deviation <= g.max_deviation)) {
    return Status::InvalidArgument(
        fmt::format("--new-puzzle-rating-deviation must be within "
                    "--rating-deviation-min..--rating-deviation-max ({}..{}), got {}",
                    g.min_deviation, g.max_deviation, s.new_puzzle_deviation));
  }
  if (!(s.next_nearest >= 1 && s.next_nearest <= kMaxNextNearest)) {
    return Status::InvalidArgument(fmt::format("--next-puzzle-nearest must be 1..{}, got {}",
                                               kMaxNextNearest, s.next_nearest));
  }
  if (!(s.next_new_window >= 0 && s.next_new_window <= kMaxNextNewWindow)) {
    return Status::InvalidArgument(fmt::format("--next-puzzle-new-window must be 0..{}, got {}",
                                               kMaxNextNewWindow, s.next_new_window));
  }
  if (!(g.max_change > 0 && std::isfinite(g.max_change))) {
    return bad("--rating-max-change", "> 0", g.max_change);
  }
  if (!std::isfinite(s.grade.center)) {
    return bad("--puzzle-rating-center", "a finite number", s.grade.center);
  }
  // A falling mapping would put harder puzzles lower, and NextPuzzle finds
  // never-judged puzzles by walking the generator score.
  if (!(s.grade.per_score >= 0 && std::isfinite(s.grade.per_score))) {
    return bad("--puzzle-rating-per-score", ">= 0 (a harder grade never starts lower)",
               s.grade.per_score);
  }
  return Status::Ok();
}

storage::RatingModel MakeRatingModel(const RatingSettings& settings) {
  const ratings::Glicko2Config config = settings.glicko;
  storage::RatingModel model;
  model.new_player = ToState(config.initial);
  model.grade = settings.grade;
  model.new_puzzle_deviation = settings.new_puzzle_deviation;
  model.next_nearest = settings.next_nearest;
  model.next_new_window = settings.next_new_window;
  model.rate_unserved = settings.rate_unserved;
  model.rate = [config](const storage::RatingState& player, const storage::RatingState& puzzle,
                        bool solved) {
    const ratings::Rating p = ToRating(player);
    const ratings::Rating z = ToRating(puzzle);
    const double score = solved ? 1.0 : 0.0;
    return std::make_pair(ToState(ratings::Update(p, {{z, score}}, config)),
                          ToState(ratings::Update(z, {{p, 1.0 - score}}, config)));
  };
  return model;
}

storage::RatingModel DefaultRatingModel() { return MakeRatingModel(RatingSettings{}); }

void AddRatingFlags(CLI::App& app, RatingSettings& s) {
  ratings::Glicko2Config& g = s.glicko;
  const std::string group = "Ratings (docs/players.md)";
  app.add_option("--new-rating", g.initial.rating, "Glicko-2 rating of a new player")
      ->capture_default_str()
      ->group(group);
  app.add_option("--new-rating-deviation", g.initial.deviation, "Rating deviation of a new player")
      ->capture_default_str()
      ->group(group);
  app.add_option("--new-rating-volatility", g.initial.volatility,
                 "Volatility of a new player and of a never-judged puzzle")
      ->capture_default_str()
      ->group(group);
  app.add_option("--rating-tau", g.tau, "Glicko-2's tau: how fast volatility may change")
      ->capture_default_str()
      ->group(group);
  app.add_option("--rating-deviation-min", g.min_deviation,
                 "A rating deviation never falls below this (ratings keep moving)")
      ->capture_default_str()
      ->group(group);
  app.add_option("--rating-deviation-max", g.max_deviation,
                 "A rating deviation never rises above this")
      ->capture_default_str()
      ->group(group);
  app.add_option("--rating-max-change", g.max_change,
                 "One play changes a rating by at most this much")
      ->capture_default_str()
      ->group(group);
  app.add_option("--puzzle-rating-center", s.grade.center,
                 "A never-judged puzzle of generator score 0.5 starts at this rating (families "
                 "without a fitted mapping; foundry players refit)")
      ->capture_default_str()
      ->group(group);
  app.add_option("--puzzle-rating-per-score", s.grade.per_score,
                 "...plus this times (score - 0.5); >= 0")
      ->capture_default_str()
      ->group(group);
  app.add_option("--new-puzzle-rating-deviation", s.new_puzzle_deviation,
                 "Rating deviation of a never-judged puzzle: how far its generator grade's "
                 "rating may be from its rating after play")
      ->capture_default_str()
      ->group(group);
  app.add_option("--next-puzzle-nearest", s.next_nearest,
                 "NextPuzzle draws at random among this many nearest puzzles the player has not "
                 "had (1: the nearest)")
      ->capture_default_str()
      ->group(group);
  app.add_option("--next-puzzle-new-window", s.next_new_window,
                 "NextPuzzle serves a never-judged puzzle within this many rating points of the "
                 "player's rating first, when it finds one (0: no preference), so that plays "
                 "reach the whole pool instead of the puzzles already judged")
      ->capture_default_str()
      ->group(group);
  app.add_flag("--rate-unserved-plays", s.rate_unserved,
               "Rate a player's first judged play of a puzzle that NextPuzzle (or the puzzle of "
               "the day) did not serve them, e.g. when the game server picks puzzles itself; by "
               "default such a puzzle, opened by id, is played unrated")
      ->group(group);
}

}  // namespace foundry::coordinator
