#include "puzzles/sudoku/swap_cycles.h"

#include <array>
#include <cstdint>

namespace foundry::puzzles::sudoku {

SwapCycles::SwapCycles(const Shape& shape, const Grid& solution)
    : n_(shape.n()), digit_(solution), cycle_of_(static_cast<size_t>(shape.cells()) * shape.n()) {
  const int n = n_;
  // Per digit d (0-based): its column and its box in each row, its row in
  // each column and in each box (computed once: BoxOf divides).
  std::array<std::array<uint8_t, kMaxN>, kMaxN> col_of{}, box_of{}, row_in_col{}, row_in_box{};
  for (int c = 0; c < shape.cells(); ++c) {
    const int d = solution[c] - 1, r = c / n, k = c % n;
    const int b = shape.BoxOf(r, k);
    col_of[d][r] = static_cast<uint8_t>(k);
    box_of[d][r] = static_cast<uint8_t>(b);
    row_in_col[d][k] = static_cast<uint8_t>(r);
    row_in_box[d][b] = static_cast<uint8_t>(r);
  }
  cycles_.reserve(static_cast<size_t>(n) * (n - 1));  // pairs x ~2 cycles each
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
}

bool SwapCycles::HasFreeCycle(int cell, const CellSet& clues) const {
  for (int x = 0; x < n_; ++x) {
    if (x == digit_[cell] - 1) continue;
    if (!cycles_[cycle_of_[static_cast<size_t>(cell) * n_ + x]].Meets(clues)) return true;
  }
  return false;
}

}  // namespace foundry::puzzles::sudoku
