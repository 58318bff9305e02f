#include "ratings/grade_fit.h"

#include <algorithm>
#include <cmath>

namespace foundry::ratings {

GradeLine FitGradeLine(const std::vector<GradePoint>& points, const GradeLine& fallback) {
  if (points.empty()) return fallback;
  const double n = static_cast<double>(points.size());
  double mean_x = 0, mean_y = 0;
  for (const GradePoint& p : points) {
    mean_x += p.score;
    mean_y += p.rating;
  }
  mean_x /= n;
  mean_y /= n;
  // Centred sums: stable where raw sums of ratings (~1e3) squared would not be.
  double sxx = 0, sxy = 0;
  for (const GradePoint& p : points) {
    sxx += (p.score - mean_x) * (p.score - mean_x);
    sxy += (p.score - mean_x) * (p.rating - mean_y);
  }
  GradeLine line;
  // Scores equal to within rounding: no slope can be told from them.
  if (sxx <= 1e-12 * n) {
    line.per_score = fallback.per_score;
  } else {
    line.per_score = std::max(0.0, sxy / sxx);
  }
  // With the slope fixed, the least-squares center passes through the means.
  line.center = mean_y - line.per_score * (mean_x - 0.5);
  return line;
}

double MeanAbsoluteError(const std::vector<GradePoint>& points, const GradeLine& line) {
  if (points.empty()) return 0;
  double sum = 0;
  for (const GradePoint& p : points) sum += std::abs(line.Rating(p.score) - p.rating);
  return sum / static_cast<double>(points.size());
}

}  // namespace foundry::ratings
