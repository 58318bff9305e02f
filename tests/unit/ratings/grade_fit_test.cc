// The grade -> rating line a refit fits (ratings/grade_fit.h): least squares,
// never a falling line, and the error it is judged by.
#include "ratings/grade_fit.h"

#include <gtest/gtest.h>

namespace foundry::ratings {
namespace {

TEST(GradeFitTest, RecoversAnExactLine) {
  const GradeLine truth{1300, 1600};
  std::vector<GradePoint> points;
  for (double s : {0.1, 0.3, 0.5, 0.8, 0.95}) points.push_back({s, truth.Rating(s)});
  const GradeLine fit = FitGradeLine(points, GradeLine{});
  EXPECT_NEAR(fit.center, 1300, 1e-9);
  EXPECT_NEAR(fit.per_score, 1600, 1e-9);
  EXPECT_NEAR(MeanAbsoluteError(points, fit), 0, 1e-9);
  // The default line misses these by |200 - 600 (score - 0.5)|:
  // 440, 320, 200, 20 and 70.
  EXPECT_NEAR(MeanAbsoluteError(points, GradeLine{}), 210, 1e-9);
}

TEST(GradeFitTest, IsTheLeastSquaresLineOfNoisyPoints) {
  // y = 1000 + 2000 (x - 0.5) + e, e = +-50 alternating: the fit beats
  // every nearby line on the sum of squares.
  std::vector<GradePoint> points;
  for (int i = 0; i <= 10; ++i) {
    const double s = i / 10.0;
    points.push_back({s, 1000 + 2000 * (s - 0.5) + (i % 2 == 0 ? 50 : -50)});
  }
  const GradeLine fit = FitGradeLine(points, GradeLine{});
  const auto sse = [&](const GradeLine& l) {
    double sum = 0;
    for (const auto& p : points)
      sum += (l.Rating(p.score) - p.rating) * (l.Rating(p.score) - p.rating);
    return sum;
  };
  for (double dc : {-1.0, 1.0}) {
    EXPECT_LT(sse(fit), sse({fit.center + dc, fit.per_score}));
    EXPECT_LT(sse(fit), sse({fit.center, fit.per_score + dc}));
  }
  EXPECT_NEAR(fit.per_score, 2000, 100);
}

TEST(GradeFitTest, AFallingLineBecomesFlat) {
  // Harder grades rated lower: the best line with per_score >= 0 is flat
  // at the mean, so the initial rating stays monotone in the score.
  const std::vector<GradePoint> points = {{0.2, 1800}, {0.5, 1500}, {0.8, 1200}};
  const GradeLine fit = FitGradeLine(points, GradeLine{});
  EXPECT_EQ(fit.per_score, 0);
  EXPECT_NEAR(fit.center, 1500, 1e-9);
}

TEST(GradeFitTest, OneScoreKeepsTheFallbackSlope) {
  const std::vector<GradePoint> points = {{0.7, 1900}, {0.7, 2100}};
  const GradeLine fit = FitGradeLine(points, GradeLine{1500, 800});
  EXPECT_EQ(fit.per_score, 800);
  EXPECT_NEAR(fit.Rating(0.7), 2000, 1e-9);
  const GradeLine empty = FitGradeLine({}, GradeLine{1400, 900});
  EXPECT_EQ(empty.center, 1400);
  EXPECT_EQ(empty.per_score, 900);
  EXPECT_EQ(MeanAbsoluteError({}, empty), 0);
}

}  // namespace
}  // namespace foundry::ratings
