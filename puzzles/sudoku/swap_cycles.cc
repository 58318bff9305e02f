#include "puzzles/sudoku/swap_cycles.h"

#include <array>
#include <cstdint>

namespace foundry::puzzles::sudoku {

SwapCycles::SwapCycles(const Shape& shape, const Grid& solution)
    : n_(shape.n()), digit_(solution), cycle_of_(static_cast<size_t>(shape.cells()) * shape.n()) {
  const int n = n_;
  // Per digit d (0-based): its column and its box in each row, its row in
  // each column and in each box (computed once: BoxOf divides).
  DigitLines col_of{}, box_of{}, row_in_col{}, row_in_box{};
  for (int c = 0; c < shape.cells(); ++c) {
    const int d = solution[c] - 1, r = c / n, k = c % n;
    const int b = shape.BoxOf(r, k);
    col_of[d][r] = static_cast<uint8_t>(k);
    box_of[d][r] = static_cast<uint8_t>(b);
    row_in_col[d][k] = static_cast<uint8_t>(r);
    row_in_box[d][b] = static_cast<uint8_t>(r);
  }
  // Digit pairs x ~2 cycles, line pairs x ~2 swaps.
  cycles_.reserve(static_cast<size_t>(n) * (n - 1) + 2 * static_cast<size_t>(n) * (n - 1));
  for (int x = 0; x < n; ++x) {
    for (int y = x + 1; y < n; ++y) {
      // Row r's x and y share the row, so one node per row stands for both;
      // the x of row r shares its column and its box with the y of two rows
      // (perhaps r itself): those are its neighbours, and a part is a set
      // of rows. Both neighbour maps are permutations of the rows, so the
      // rows reached from r by following them forward are r's whole part.
      uint32_t unseen = (1u << n) - 1;
      while (unseen) {
        uint32_t part = unseen & (0u - unseen);  // parts in order of their first row
        unseen &= ~part;
        for (uint32_t todo = part; todo;) {
          const int r = __builtin_ctz(todo);
          todo &= todo - 1;
          const uint32_t next =
              (1u << row_in_col[y][col_of[x][r]] | 1u << row_in_box[y][box_of[x][r]]) & unseen;
          unseen &= ~next;
          part |= next;
          todo |= next;
        }
        const auto index = static_cast<uint16_t>(cycles_.size());
        CellSet& cycle = cycles_.emplace_back();
        for (; part; part &= part - 1) {
          const int r = __builtin_ctz(part);
          const int cell_x = r * n + col_of[x][r], cell_y = r * n + col_of[y][r];
          cycle.Add(cell_x);
          cycle.Add(cell_y);
          cycle_of_[static_cast<size_t>(cell_x) * n + y] = index;
          cycle_of_[static_cast<size_t>(cell_y) * n + x] = index;
        }
      }
    }
  }
  AddLineSwaps(shape, col_of, row_in_col);
}

void SwapCycles::AddLineSwaps(const Shape& shape, const DigitLines& col_of,
                              const DigitLines& row_in_col) {
  const int n = n_;
  slots_ = shape.box_rows - 1 + shape.box_cols - 1;
  swap_of_.assign(static_cast<size_t>(shape.cells()) * slots_, 0);
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
        uint32_t seen = 0;
        for (int p0 = 0; p0 < n; ++p0) {
          if (seen >> p0 & 1) continue;
          const auto index = static_cast<uint16_t>(cycles_.size());
          CellSet& swap = cycles_.emplace_back();
          for (int p = p0; !(seen >> p & 1); p = where[digit_[cell(l1, p)] - 1][l2]) {
            seen |= 1u << p;
            swap.Add(cell(l1, p));
            swap.Add(cell(l2, p));
            swap_of_[static_cast<size_t>(cell(l1, p)) * slots_ + slot(l1, l2)] = index;
            swap_of_[static_cast<size_t>(cell(l2, p)) * slots_ + slot(l2, l1)] = index;
          }
        }
      }
    }
  };
  add(shape.box_rows, 0, col_of, [n](int row, int col) { return row * n + col; });
  add(shape.box_cols, shape.box_rows - 1, row_in_col,
      [n](int col, int row) { return row * n + col; });
}

bool SwapCycles::HasFreeCycle(int cell, const CellSet& clues) const {
  for (int x = 0; x < n_; ++x) {
    if (x == digit_[cell] - 1) continue;
    if (!cycles_[cycle_of_[static_cast<size_t>(cell) * n_ + x]].Meets(clues)) return true;
  }
  for (int j = 0; j < slots_; ++j) {
    if (!cycles_[swap_of_[static_cast<size_t>(cell) * slots_ + j]].Meets(clues)) return true;
  }
  return false;
}

}  // namespace foundry::puzzles::sudoku
