#include "ratings/glicko2.h"

#include <gtest/gtest.h>

namespace foundry::ratings {
namespace {

// Glickman's worked example ("Example of the Glicko-2 system", 2013).
TEST(Glicko2Test, ReproducesGlickmansExample) {
  const Rating player{1500, 200, 0.06};
  const std::vector<Game> games = {
      {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const Rating after = UpdateUnclamped(player, games, 0.5);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.0001);
}

TEST(Glicko2Test, AWinRaisesALossLowers) {
  const Glicko2Config config;
  const Rating player = config.initial;
  const Rating puzzle{1600, 200, 0.09};
  EXPECT_GT(Update(player, {{puzzle, 1}}, config).rating, player.rating);
  EXPECT_LT(Update(player, {{puzzle, 0}}, config).rating, player.rating);
  EXPECT_LT(Update(player, {{puzzle, 1}}, config).deviation, player.deviation);
}

TEST(Glicko2Test, ClampsDeviationAndChange) {
  Glicko2Config config;
  config.max_change = 10;
  config.min_deviation = 45;
  const Rating after = Update({1500, 500, 0.09}, {{{2500, 45, 0.06}, 1}}, config);
  EXPECT_NEAR(after.rating, 1510, 1e-9);
  Rating settled{1500, 45, 0.0001};
  for (int i = 0; i < 50; ++i)
    settled = Update(settled, {{{1500, 45, 0.06}, i % 2 == 0 ? 1.0 : 0.0}}, config);
  EXPECT_GE(settled.deviation, 45);
  EXPECT_LE(Update({1500, 500, 0.09}, {}, config).deviation, 500);
}

TEST(Glicko2Test, EmptyPeriodWidensDeviation) {
  const Rating r{1500, 100, 0.06};
  EXPECT_GT(UpdateUnclamped(r, {}, 0.5).deviation, 100);
}

TEST(Glicko2Test, ExpectedScoreIsSymmetricAtEqualRatings) {
  EXPECT_NEAR(ExpectedScore({1500, 100, 0.06}, {1500, 100, 0.06}), 0.5, 1e-12);
  EXPECT_GT(ExpectedScore({1800, 100, 0.06}, {1500, 100, 0.06}), 0.8);
}

}  // namespace
}  // namespace foundry::ratings
