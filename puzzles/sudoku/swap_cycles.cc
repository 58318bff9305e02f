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
      // (perhaps r itself): join those. A part is then a set of rows.
      std::array<uint8_t, kMaxN> parent;
      for (int r = 0; r < n; ++r) parent[r] = static_cast<uint8_t>(r);
      auto root = [&](int r) {
        while (parent[r] != r) r = parent[r] = parent[parent[r]];
        return r;
      };
      for (int r = 0; r < n; ++r) {
        for (int other : {int{row_in_col[y][col_of[x][r]]}, int{row_in_box[y][box_of[x][r]]}}) {
          parent[root(other)] = static_cast<uint8_t>(root(r));
        }
      }
      std::array<uint16_t, kMaxN> index_of_root;
      index_of_root.fill(UINT16_MAX);
      for (int r = 0; r < n; ++r) {
        const int top = root(r);
        if (index_of_root[top] == UINT16_MAX) {
          index_of_root[top] = static_cast<uint16_t>(cycles_.size());
          cycles_.emplace_back();
        }
        const uint16_t index = index_of_root[top];
        const int cell_x = r * n + col_of[x][r], cell_y = r * n + col_of[y][r];
        cycles_[index].Add(cell_x);
        cycles_[index].Add(cell_y);
        cycle_of_[static_cast<size_t>(cell_x) * n + y] = index;
        cycle_of_[static_cast<size_t>(cell_y) * n + x] = index;
      }
    }
  }
  AddLineSwaps(shape, col_of, row_in_col);
}

void SwapCycles::AddLineSwaps(const Shape& shape, const DigitLines& col_of,
                              const DigitLines& row_in_col) {
  const int n = n_, rows_per_band = shape.box_rows, cols_per_stack = shape.box_cols;
  const int slots = rows_per_band - 1 + cols_per_stack - 1;
  swap_of_.assign(static_cast<size_t>(shape.cells()) * slots, 0);
  // The slot of `partner` among the other lines of `line`'s group of `size`.
  auto slot = [](int line, int partner, int size) {
    const int j = partner % size;
    return j < line % size ? j : j - 1;
  };
  // Rows r1 and r2 of one band: column c goes to the column where r2 holds
  // r1's digit of c. Each cycle of that map is a set of columns in which
  // the two rows hold the same digits.
  for (int r1 = 0; r1 < n; ++r1) {
    for (int r2 = r1 + 1; r2 < r1 / rows_per_band * rows_per_band + rows_per_band; ++r2) {
      uint32_t seen = 0;
      for (int c = 0; c < n; ++c) {
        if (seen >> c & 1) continue;
        const auto index = static_cast<uint16_t>(cycles_.size());
        CellSet& swap = cycles_.emplace_back();
        for (int k = c; !(seen >> k & 1); k = col_of[digit_[r1 * n + k] - 1][r2]) {
          seen |= 1u << k;
          swap.Add(r1 * n + k);
          swap.Add(r2 * n + k);
          swap_of_[static_cast<size_t>(r1 * n + k) * slots + slot(r1, r2, rows_per_band)] = index;
          swap_of_[static_cast<size_t>(r2 * n + k) * slots + slot(r2, r1, rows_per_band)] = index;
        }
      }
    }
  }
  // Columns of one stack likewise, with rows.
  for (int k1 = 0; k1 < n; ++k1) {
    for (int k2 = k1 + 1; k2 < k1 / cols_per_stack * cols_per_stack + cols_per_stack; ++k2) {
      uint32_t seen = 0;
      for (int r = 0; r < n; ++r) {
        if (seen >> r & 1) continue;
        const auto index = static_cast<uint16_t>(cycles_.size());
        CellSet& swap = cycles_.emplace_back();
        for (int i = r; !(seen >> i & 1); i = row_in_col[digit_[i * n + k1] - 1][k2]) {
          seen |= 1u << i;
          swap.Add(i * n + k1);
          swap.Add(i * n + k2);
          const size_t base = rows_per_band - 1;
          swap_of_[static_cast<size_t>(i * n + k1) * slots + base + slot(k1, k2, cols_per_stack)] =
              index;
          swap_of_[static_cast<size_t>(i * n + k2) * slots + base + slot(k2, k1, cols_per_stack)] =
              index;
        }
      }
    }
  }
  slots_ = slots;
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
