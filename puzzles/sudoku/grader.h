// The human-style grader: solves a sudoku the way a person does, applying
// the easiest technique that makes progress and starting over from the
// easiest after every step, and grades the puzzle by the hardest technique
// it needed. It never guesses; when nothing applies the puzzle needs search.
//
// The difficulty table (the one place levels are defined):
//   level    techniques
//   easy     naked single, hidden single
//   medium   locked candidates (pointing, claiming), naked pair, hidden pair
//   hard     naked triple and quad, hidden triple and quad, X-wing,
//            swordfish, XY-wing
//   expert   none of the above finishes the grid: search (guessing) needed
//
// Every technique only removes candidates that no solution can use, so on a
// puzzle with one solution the grader never goes wrong; it is not used to
// decide uniqueness (solver.h and dlx.h do that).
//
// Thread safety: a pure function.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "puzzles/family.h"
#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

enum class Technique {
  kNakedSingle,
  kHiddenSingle,
  kLockedCandidates,
  kNakedPair,
  kHiddenPair,
  kNakedTriple,
  kHiddenTriple,
  kXWing,
  kXYWing,
  kSwordfish,
  kNakedQuad,
  kHiddenQuad,
};
inline constexpr int kTechniqueCount = 12;

// snake_case name ("locked_candidates") and level index into kLevels
// (0 easy, 1 medium, 2 hard).
std::string_view TechniqueName(Technique t);
int TechniqueLevel(Technique t);

struct Grade {
  int level = 0;                            // 0..3, an index into kLevels
  std::array<int, kTechniqueCount> uses{};  // steps that used each technique
  int clues = 0;
  int unsolved_when_stuck = 0;  // open cells when the grader gave up (expert)
  bool contradiction = false;   // a cell lost every candidate (no solution)
  Grid filled;                  // the grid as far as logic filled it
  // When logic got stuck with every technique tried (open cells left, no
  // contradiction, not capped): per cell the digits it may still take (bit
  // d for digit d + 1; a filled cell has its one bit). Every solution of
  // the puzzle fits them. Empty otherwise.
  std::vector<uint16_t> candidates;
  // Grading stopped at max_level (see GradePuzzle): the puzzle needs more,
  // and `level` (max_level + 1) is only a lower bound.
  bool capped = false;

  // Level name, score in [0, 1] and details {"clues", "hardest", "techniques"}.
  Difficulty ToDifficulty() const;
};

// Grades `puzzle`. With max_level below 3, techniques above that level are
// never tried: a puzzle that needs one comes back capped at max_level + 1,
// which is all a filter for a lower level needs to know, for much less work.
// REQUIRES: puzzle.size() == shape.cells(), 0 <= max_level <= 3.
Grade GradePuzzle(const Shape& shape, const Grid& puzzle, int max_level = 3);

}  // namespace foundry::puzzles::sudoku
