// The alignment board (seed 001, Borderlands Science) and its scoring rule.
//
// A board has W columns of coloured bricks and `height` rows. Bricks fill a
// column from row 0 down; a gap inserted before brick p shifts bricks p.. one
// row down, so a column's layout is its bricks in order with gaps between
// them (never after the last brick: such a gap changes nothing). Row r has a
// guide, a set of colours; m_r counts the columns whose cell in row r is a
// brick of a guide colour, and the score is
//   sum_r m_r * (m_r == W ? row_bonus : 1)      (the seed's rule).
//
// Thread safety: values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace foundry::puzzles::alignment {

// Limits of the parameters and of what Verify() reads.
inline constexpr int kMinColumns = 2;
inline constexpr int kMaxColumns = 16;
inline constexpr int kMinHeight = 3;
inline constexpr int kMaxHeight = 24;
inline constexpr int kMaxRowBonus = 10;
// Colour c (0..3) is written kColorLetters[c].
inline constexpr std::string_view kColorLetters = "ACGT";
inline constexpr char kGapLetter = '-';

struct Board {
  int height = 8;
  int row_bonus = 2;
  int max_gaps = 0;                           // 0: only the height limits gaps
  std::vector<std::vector<uint8_t>> columns;  // colour indices, brick 0 on top
  std::vector<uint8_t> guides;                // per row: bit c set = colour c fits

  int width() const { return static_cast<int>(columns.size()); }
};

// A layout: per column, its cells from row 0 down, kGap or a colour index.
// Invariants (see IsValidLayout): removing the gaps gives the column; no gap
// after the last brick; at most `height` cells; at most max_gaps gaps in all
// when max_gaps > 0.
inline constexpr int8_t kGap = -1;
using Layout = std::vector<std::vector<int8_t>>;

// The layout without gaps (the board as generated).
Layout BaseLayout(const Board& board);

// True when `layout` keeps the invariants above for `board`.
bool IsValidLayout(const Board& board, const Layout& layout);

// Number of gaps in `layout`.
int GapCount(const Layout& layout);

// Score of a row with `m` matching columns out of `width`.
inline int RowScore(int m, int width, int row_bonus) { return m == width ? m * row_bonus : m; }

// The seed's score of `layout`. REQUIRES: IsValidLayout(board, layout).
int Score(const Board& board, const Layout& layout);

// "A-CGT": one string per column. And the guide of a row as letters in
// ACGT order ("CG").
std::vector<std::string> LayoutStrings(const Layout& layout);
std::string GuideString(uint8_t guide);

}  // namespace foundry::puzzles::alignment
