// The grade -> rating line of a family, fitted from its puzzles' ratings
// (docs/players.md, "The rating model"): a new puzzle starts at
//   center + per_score * (generator score - 0.5),
// and a refit chooses center and per_score by least squares against the
// current ratings of puzzles that have been played enough.
//
// Pure arithmetic: no I/O, no state, safe from any thread.
#pragma once

#include <vector>

namespace foundry::ratings {

// A grade -> rating line.
struct GradeLine {
  double center = 1500;
  double per_score = 1000;

  // The rating the line gives a puzzle of generator score `score`.
  double Rating(double score) const { return center + per_score * (score - 0.5); }
};

// One puzzle: its generator score and its rating now.
struct GradePoint {
  double score = 0;
  double rating = 0;
};

// The least-squares line through `points` with per_score >= 0 (a harder
// grade never starts lower, which NextPuzzle relies on). A negative
// best slope gives the best flat line (per_score 0, center the mean
// rating); points that all share one score cannot tell a slope, so
// `fallback`'s per_score is kept and only the center is fitted. Empty
// `points` give `fallback`.
GradeLine FitGradeLine(const std::vector<GradePoint>& points, const GradeLine& fallback);

// The mean of |line.Rating(score) - rating| over `points`; 0 when empty.
double MeanAbsoluteError(const std::vector<GradePoint>& points, const GradeLine& line);

}  // namespace foundry::ratings
