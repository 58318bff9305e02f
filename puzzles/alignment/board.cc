#include "puzzles/alignment/board.h"

namespace foundry::puzzles::alignment {

Layout BaseLayout(const Board& board) {
  Layout layout;
  layout.reserve(board.columns.size());
  for (const auto& column : board.columns) layout.emplace_back(column.begin(), column.end());
  return layout;
}

bool IsValidLayout(const Board& board, const Layout& layout) {
  if (layout.size() != board.columns.size()) return false;
  for (size_t c = 0; c < layout.size(); ++c) {
    const auto& cells = layout[c];
    if (static_cast<int>(cells.size()) > board.height) return false;
    if (!cells.empty() && cells.back() == kGap) return false;
    size_t brick = 0;
    for (int8_t cell : cells) {
      if (cell == kGap) continue;
      if (brick >= board.columns[c].size() || board.columns[c][brick] != cell) return false;
      ++brick;
    }
    if (brick != board.columns[c].size()) return false;
  }
  return board.max_gaps == 0 || GapCount(layout) <= board.max_gaps;
}

int GapCount(const Layout& layout) {
  int gaps = 0;
  for (const auto& cells : layout) {
    for (int8_t cell : cells) gaps += cell == kGap;
  }
  return gaps;
}

int Score(const Board& board, const Layout& layout) {
  const int width = board.width();
  int score = 0;
  for (int r = 0; r < board.height; ++r) {
    int m = 0;
    for (const auto& cells : layout) {
      if (r < static_cast<int>(cells.size()) && cells[r] != kGap) {
        m += (board.guides[r] >> cells[r]) & 1;
      }
    }
    score += RowScore(m, width, board.row_bonus);
  }
  return score;
}

std::vector<std::string> LayoutStrings(const Layout& layout) {
  std::vector<std::string> out;
  out.reserve(layout.size());
  for (const auto& cells : layout) {
    std::string s;
    for (int8_t cell : cells) s += cell == kGap ? kGapLetter : kColorLetters[cell];
    out.push_back(std::move(s));
  }
  return out;
}

std::string GuideString(uint8_t guide) {
  std::string s;
  for (size_t c = 0; c < kColorLetters.size(); ++c) {
    if ((guide >> c) & 1) s += kColorLetters[c];
  }
  return s;
}

}  // namespace foundry::puzzles::alignment
