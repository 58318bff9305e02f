#include "puzzles/nonogram/board.h"

#include <cstddef>

#include "puzzles/bit_count.h"
#include "puzzles/nonogram/simple_rules.h"

namespace foundry::puzzles::nonogram {

LineSet::LineSet(const Clues& c) : clues(c) {
  for (const Clue& clue : c.rows) rows.push_back(LineAutomaton::Build(clue, c.width));
  for (const Clue& clue : c.columns) columns.push_back(LineAutomaton::Build(clue, c.height));
}

Board::Board(const LineSet& lines)
    : lines_(&lines),
      width_(lines.clues.width),
      height_(lines.clues.height),
      open_(width_ * height_),
      dirty_rows_(LowBits(height_)),
      dirty_columns_(LowBits(width_)),
      row_fill_{},
      row_empty_{},
      col_fill_{},
      col_empty_{} {}

bool Board::Set(int r, int c, bool filled) {
  if (Known(r, c)) return Filled(r, c) == filled;
  (filled ? row_fill_[r] : row_empty_[r]) |= 1ULL << c;
  (filled ? col_fill_[c] : col_empty_[c]) |= 1ULL << r;
  dirty_rows_ |= 1ULL << r;
  dirty_columns_ |= 1ULL << c;
  --open_;
  return true;
}

bool Board::SolveRow(int r, Rule rule) {
  uint64_t fill = row_fill_[r], empty = row_empty_[r];
  const bool ok = rule == Rule::kFull
                      ? SolveLine(lines_->rows[static_cast<size_t>(r)], fill, empty)
                      : SimpleLine(lines_->rows[static_cast<size_t>(r)], fill, empty);
  if (!ok) return false;
  const uint64_t new_fill = fill & ~row_fill_[r], new_empty = empty & ~row_empty_[r];
  row_fill_[r] = fill;
  row_empty_[r] = empty;
  open_ -= BitCount64(new_fill | new_empty);
  for (uint64_t m = new_fill; m != 0; m &= m - 1) col_fill_[__builtin_ctzll(m)] |= 1ULL << r;
  for (uint64_t m = new_empty; m != 0; m &= m - 1) col_empty_[__builtin_ctzll(m)] |= 1ULL << r;
  dirty_columns_ |= new_fill | new_empty;
  return true;
}

bool Board::SolveColumn(int c, Rule rule) {
  uint64_t fill = col_fill_[c], empty = col_empty_[c];
  const bool ok = rule == Rule::kFull
                      ? SolveLine(lines_->columns[static_cast<size_t>(c)], fill, empty)
                      : SimpleLine(lines_->columns[static_cast<size_t>(c)], fill, empty);
  if (!ok) return false;
  const uint64_t new_fill = fill & ~col_fill_[c], new_empty = empty & ~col_empty_[c];
  col_fill_[c] = fill;
  col_empty_[c] = empty;
  open_ -= BitCount64(new_fill | new_empty);
  for (uint64_t m = new_fill; m != 0; m &= m - 1) row_fill_[__builtin_ctzll(m)] |= 1ULL << c;
  for (uint64_t m = new_empty; m != 0; m &= m - 1) row_empty_[__builtin_ctzll(m)] |= 1ULL << c;
  dirty_rows_ |= new_fill | new_empty;
  return true;
}

bool Board::Propagate(Rule rule, int* sweeps) {
  while ((dirty_rows_ | dirty_columns_) != 0) {
    if (sweeps != nullptr) ++*sweeps;
    for (uint64_t m = dirty_rows_; m != 0; m &= m - 1) {
      const int r = __builtin_ctzll(m);
      dirty_rows_ &= ~(1ULL << r);
      if (!SolveRow(r, rule)) return false;
    }
    for (uint64_t m = dirty_columns_; m != 0; m &= m - 1) {
      const int c = __builtin_ctzll(m);
      dirty_columns_ &= ~(1ULL << c);
      if (!SolveColumn(c, rule)) return false;
    }
  }
  return true;
}

Rows Board::Filled() const { return Rows(row_fill_, row_fill_ + height_); }

}  // namespace foundry::puzzles::nonogram
