// The generator's working grid: what is known of every cell, kept as row
// masks and column masks at once (so a row and a column each read as one
// word), with the lines that changed waiting to be solved again.
//
// Propagate() solves waiting lines until none changes, with either the easy
// rules (simple_rules.h) or the complete line solver (line_solver.h). The
// deductions are sound and only add knowledge, so the state it stops at is
// the same whatever the order: the fixed point of the rule.
//
// Thread safety: LineSet is immutable after construction; a Board is a value
// owned by one thread (probing copies it).
#pragma once

#include <cstdint>
#include <vector>

#include "puzzles/nonogram/line_solver.h"
#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

// A puzzle's clues with their automata, built once per puzzle.
struct LineSet {
  explicit LineSet(const Clues& c);
  const Clues& clues;
  std::vector<LineAutomaton> rows, columns;
};

enum class Rule { kSimple, kFull };

class Board {
 public:
  // Nothing known. `lines` must outlive the board.
  explicit Board(const LineSet& lines);

  // Sets cell (r, c); false when it is known the other way.
  bool Set(int r, int c, bool filled);

  // Solves the lines that changed, rows then columns, until none changes.
  // Returns false on a contradiction (no line agrees with what is known).
  // Adds the number of sweeps (a sweep: the waiting rows, then the waiting
  // columns) to *sweeps when given.
  bool Propagate(Rule rule, int* sweeps = nullptr);

  // Every line waits to be solved again (before a stronger rule runs).
  void MarkAllDirty() {
    dirty_rows_ = LowBits(height_);
    dirty_columns_ = LowBits(width_);
  }

  // Cells not yet known.
  int open() const { return open_; }
  bool Known(int r, int c) const { return ((row_fill_[r] | row_empty_[r]) >> c) & 1ULL; }
  bool Filled(int r, int c) const { return (row_fill_[r] >> c) & 1ULL; }
  // Row r's known-filled and known-empty cells.
  uint64_t RowFill(int r) const { return row_fill_[r]; }
  uint64_t RowEmpty(int r) const { return row_empty_[r]; }
  int width() const { return width_; }
  int height() const { return height_; }
  // The known-filled cells as rows (the solution once open() is 0).
  Rows Filled() const;

 private:
  bool SolveRow(int r, Rule rule);
  bool SolveColumn(int c, Rule rule);

  const LineSet* lines_;
  int width_, height_;
  int open_;
  uint64_t dirty_rows_, dirty_columns_;
  uint64_t row_fill_[kMaxSide], row_empty_[kMaxSide];
  uint64_t col_fill_[kMaxSide], col_empty_[kMaxSide];
};

}  // namespace foundry::puzzles::nonogram
