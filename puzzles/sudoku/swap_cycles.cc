#include "puzzles/sudoku/swap_cycles.h"

#include <array>
#include <cstdint>

namespace foundry::puzzles::sudoku {

SwapCycles::SwapCycles(const Shape& shape, const Grid& solution)
    : n_(shape.n()),
      digit_(solution),
      row_(static_cast<size_t>(shape.cells())),
      col_(static_cast<size_t>(shape.cells())),
      part_(static_cast<size_t>(shape.cells()) * shape.n()) {
  const int n = n_;
  // Per digit d (0-based): its column and its box in each row, its row in
  // each column and in each box. Boxes by table: one division per line.
  std::array<uint8_t, kMaxN> box_of_row{}, box_of_col{};
  for (int i = 0; i < n; ++i) {
    box_of_row[i] = static_cast<uint8_t>(i / shape.box_rows * shape.box_rows);
    box_of_col[i] = static_cast<uint8_t>(i / shape.box_cols);
  }
  DigitLines col_of{}, box_of{}, row_in_col{}, row_in_box{};
  for (int r = 0, c = 0; r < n; ++r) {
    for (int k = 0; k < n; ++k, ++c) {
      const int d = solution[c] - 1;
      const int b = box_of_row[r] + box_of_col[k];
      row_[c] = static_cast<uint8_t>(r);
      col_[c] = static_cast<uint8_t>(k);
      col_of[d][r] = static_cast<uint8_t>(k);
      box_of[d][r] = static_cast<uint8_t>(b);
      row_in_col[d][k] = static_cast<uint8_t>(r);
      row_in_box[d][b] = static_cast<uint8_t>(r);
    }
  }
  for (int x = 0; x < n; ++x) {
    for (int y = x + 1; y < n; ++y) {
      // Row r's x and y share the row, so one node per row stands for both;
      // the x of row r shares its column and its box with the y of two rows
      // (perhaps r itself): those are its neighbours, and a part is a set
      // of rows. Both neighbour maps are permutations of the rows, so the
      // rows reached from r by following them forward are r's whole part.
      // The neighbours first, each row's apart from the others', so that
      // the walk below waits on one load a step, not on a chain of three.
      std::array<uint32_t, kMaxN> next_of;
      for (int r = 0; r < n; ++r) {
        next_of[r] = 1u << row_in_col[y][col_of[x][r]] | 1u << row_in_box[y][box_of[x][r]];
      }
      uint32_t unseen = (1u << n) - 1;
      while (unseen) {
        uint32_t part = unseen & (0u - unseen);  // parts in order of their first row
        unseen &= ~part;
        for (uint32_t todo = part; todo;) {
          const int r = __builtin_ctz(todo);
          todo &= todo - 1;
          const uint32_t next = next_of[r] & unseen;
          unseen &= ~next;
          part |= next;
          todo |= next;
        }
        for (uint32_t rows = part; rows; rows &= rows - 1) {
          const int r = __builtin_ctz(rows);
          part_[static_cast<size_t>(r * n + col_of[x][r]) * n + y] = static_cast<uint16_t>(part);
          part_[static_cast<size_t>(r * n + col_of[y][r]) * n + x] = static_cast<uint16_t>(part);
        }
      }
    }
  }
  AddLineSwaps(shape, col_of, row_in_col);
}

void SwapCycles::AddLineSwaps(const Shape& shape, const DigitLines& col_of,
                              const DigitLines& row_in_col) {
  const int n = n_;
  row_slots_ = shape.box_rows - 1;
  slots_ = row_slots_ + shape.box_cols - 1;
  swap_.assign(static_cast<size_t>(shape.cells()) * slots_, 0);
  partner_.assign(static_cast<size_t>(shape.cells()) * slots_, 0);
  // For the lines of one kind (rows in bands of `group`, or columns in
  // stacks): cell(line, pos) numbers a cell; where[d][line] is the position
  // of digit d (0-based) in a line; the slots of this kind start at `first`.
  // For lines l1 and l2 of one group, position p goes to the position where
  // l2 holds l1's digit of p; each cycle of that map is a set of positions
  // in which the two lines hold the same digits.
  auto add = [&](int group, int first, const DigitLines& where, auto cell) {
    // The slot of `partner` among the other lines of `line`'s group.
    auto slot = [&](int line, int partner) {
      const int j = partner % group;
      return first + (j < line % group ? j : j - 1);
    };
    for (int l1 = 0; l1 < n; ++l1) {
      for (int l2 = l1 + 1; l2 < l1 / group * group + group; ++l2) {
        std::array<uint8_t, kMaxN> to;  // the map, read before it is walked
        for (int p = 0; p < n; ++p) to[p] = where[digit_[cell(l1, p)] - 1][l2];
        uint32_t seen = 0;
        for (int p0 = 0; p0 < n; ++p0) {
          if (seen >> p0 & 1) continue;
          uint32_t positions = 0;
          for (int p = p0; !(positions >> p & 1); p = to[p]) positions |= 1u << p;
          seen |= positions;
          const int s1 = slot(l1, l2), s2 = slot(l2, l1);
          for (uint32_t m = positions; m; m &= m - 1) {
            const int p = __builtin_ctz(m);
            const size_t i1 = static_cast<size_t>(cell(l1, p)) * slots_ + s1;
            const size_t i2 = static_cast<size_t>(cell(l2, p)) * slots_ + s2;
            swap_[i1] = swap_[i2] = static_cast<uint16_t>(positions);
            partner_[i1] = static_cast<uint8_t>(l2);
            partner_[i2] = static_cast<uint8_t>(l1);
          }
        }
      }
    }
  };
  add(shape.box_rows, 0, col_of, [n](int row, int col) { return row * n + col; });
  add(shape.box_cols, row_slots_, row_in_col, [n](int col, int row) { return row * n + col; });
}

bool SwapCycles::HasFreeCycle(int cell, const ClueSet& clues) const {
  const int x = digit_[cell] - 1;
  const uint16_t x_rows = clues.digit_rows_[x];
  const uint16_t* parts = &part_[static_cast<size_t>(cell) * n_];
  for (int y = 0; y < n_; ++y) {
    if (y != x && !(parts[y] & (x_rows | clues.digit_rows_[y]))) return true;
  }
  const size_t at = static_cast<size_t>(cell) * slots_;
  const uint16_t row_given = clues.row_cols_[row_[cell]];
  for (int j = 0; j < row_slots_; ++j) {
    if (!(swap_[at + j] & (row_given | clues.row_cols_[partner_[at + j]]))) return true;
  }
  const uint16_t col_given = clues.col_rows_[col_[cell]];
  for (int j = row_slots_; j < slots_; ++j) {
    if (!(swap_[at + j] & (col_given | clues.col_rows_[partner_[at + j]]))) return true;
  }
  return false;
}

}  // namespace foundry::puzzles::sudoku
