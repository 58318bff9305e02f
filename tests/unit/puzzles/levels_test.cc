#include <gtest/gtest.h>

#include "puzzles/family.h"

namespace foundry::puzzles {
namespace {

TEST(LevelForScoreTest, EachFloorStartsItsLevel) {
  constexpr LevelFloors floors = {0.0, 0.3, 0.6, 0.9};
  EXPECT_EQ(LevelForScore(0.0, floors), "easy");
  EXPECT_EQ(LevelForScore(0.299, floors), "easy");
  EXPECT_EQ(LevelForScore(0.3, floors), "medium");
  EXPECT_EQ(LevelForScore(0.6, floors), "hard");
  EXPECT_EQ(LevelForScore(0.95, floors), "expert");
  EXPECT_EQ(LevelForScore(1.0, floors), "expert");
}

}  // namespace
}  // namespace foundry::puzzles
