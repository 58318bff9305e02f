#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

Clue RunsOf(uint64_t line, int n) {
  Clue runs;
  int c = 0;
  line &= LowBits(n);
  while (line != 0) {
    const int start = __builtin_ctzll(line);
    const uint64_t shifted = line >> start;
    // The run ends at the first zero above `start`.
    const int len = shifted == ~0ULL ? 64 - start : __builtin_ctzll(~shifted);
    runs.push_back(len);
    c = start + len;
    line = c >= 64 ? 0 : line & ~LowBits(c);
  }
  return runs;
}

bool ClueFits(const Clue& clue, int n) {
  int need = -1;
  for (int run : clue) {
    if (run < 1 || run > n) return false;
    need += run + 1;
  }
  return need <= n;
}

uint64_t Column(const Rows& rows, int c) {
  uint64_t col = 0;
  for (size_t r = 0; r < rows.size(); ++r) col |= ((rows[r] >> c) & 1ULL) << r;
  return col;
}

Clues CluesOf(const Rows& rows, int width, int height) {
  Clues clues;
  clues.width = width;
  clues.height = height;
  for (int r = 0; r < height; ++r)
    clues.rows.push_back(RunsOf(rows[static_cast<size_t>(r)], width));
  for (int c = 0; c < width; ++c) clues.columns.push_back(RunsOf(Column(rows, c), height));
  return clues;
}

bool Satisfies(const Clues& clues, const Rows& rows) {
  if (static_cast<int>(rows.size()) != clues.height) return false;
  for (int r = 0; r < clues.height; ++r) {
    if (RunsOf(rows[static_cast<size_t>(r)], clues.width) != clues.rows[static_cast<size_t>(r)])
      return false;
  }
  for (int c = 0; c < clues.width; ++c) {
    if (RunsOf(Column(rows, c), clues.height) != clues.columns[static_cast<size_t>(c)])
      return false;
  }
  return true;
}

}  // namespace foundry::puzzles::nonogram
