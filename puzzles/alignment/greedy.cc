#include "puzzles/alignment/greedy.h"

#include <array>

namespace foundry::puzzles::alignment {

GreedyResult Greedy(const Board& board) {
  const int width = board.width();
  const int height = board.height;
  const int bonus = board.row_bonus;
  const auto row_score = [&](int m) { return RowScore(m, width, bonus); };

  // cells[c][r]: colour or kGap (also below the last brick); len[c]: cells used.
  std::array<std::array<int8_t, kMaxHeight + 1>, kMaxColumns> cells;
  std::array<int, kMaxColumns> len{};
  for (int c = 0; c < width; ++c) {
    cells[c].fill(kGap);
    const auto& column = board.columns[c];
    for (size_t k = 0; k < column.size(); ++k) cells[c][k] = static_cast<int8_t>(column[k]);
    len[c] = static_cast<int>(column.size());
  }
  const auto matches = [&](int8_t cell, int r) {
    return cell != kGap && ((board.guides[r] >> cell) & 1);
  };

  GreedyResult result;
  int gaps = 0;
  std::array<int, kMaxHeight> m{};
  std::array<int, kMaxHeight + 1> prefix{};  // prefix[q] = score of rows < q
  std::array<int, kMaxHeight + 1> suffix{};  // suffix[q] = shifted score of rows > q
  while (true) {
    // The current score, once per step.
    ++result.evaluations;
    for (int r = 0; r < height; ++r) {
      m[r] = 0;
      for (int c = 0; c < width; ++c) m[r] += matches(cells[c][r], r);
      prefix[r + 1] = prefix[r] + row_score(m[r]);
    }
    const int current = prefix[height];
    if (result.scores.empty()) result.scores.push_back(current);
    if (board.max_gaps > 0 && gaps >= board.max_gaps) break;

    int best = current, best_c = -1, best_q = -1;
    for (int c = 0; c < width; ++c) {
      if (len[c] == height) continue;  // full: no gap fits
      // The future score of this column shifted down by one, once per column.
      ++result.evaluations;
      suffix[height - 1] = 0;
      for (int r = height - 1; r > 0; --r) {
        const int shifted = m[r] - matches(cells[c][r], r) + matches(cells[c][r - 1], r);
        suffix[r - 1] = suffix[r] + row_score(shifted);
      }
      for (int q = 0; q < len[c]; ++q) {
        if (cells[c][q] == kGap) continue;  // same layout as before the next brick
        const int total = prefix[q] + row_score(m[q] - matches(cells[c][q], q)) + suffix[q];
        if (total > best) {
          best = total;
          best_c = c;
          best_q = q;
        }
      }
    }
    if (best_c < 0) break;
    auto& col = cells[best_c];
    for (int r = len[best_c]; r > best_q; --r) col[r] = col[r - 1];
    col[best_q] = kGap;
    ++len[best_c];
    ++gaps;
    result.scores.push_back(best);
  }
  result.layout.resize(width);
  for (int c = 0; c < width; ++c)
    result.layout[c].assign(cells[c].begin(), cells[c].begin() + len[c]);
  return result;
}

}  // namespace foundry::puzzles::alignment
