#include "puzzles/sudoku/swap_cycles.h"

#include <array>

namespace foundry::puzzles::sudoku {

SwapCycles::SwapCycles(const Shape& shape, const Grid& solution)
    : n_(shape.n()), digit_(solution), cycle_of_(static_cast<size_t>(shape.cells()) * shape.n()) {
  const int n = n_, cells = shape.cells();
  // where[d][u]: the cell holding digit d (0-based) in unit u (rows, then
  // columns, then boxes).
  std::vector<int> where(static_cast<size_t>(n) * 3 * n);
  auto at = [&](int d, int u) -> int& { return where[static_cast<size_t>(d) * 3 * n + u]; };
  // units[c]: the row, column and box of cell c as unit numbers.
  std::vector<std::array<int, 3>> units(cells);
  for (int c = 0; c < cells; ++c) {
    const int d = solution[c] - 1, r = c / n, k = c % n;
    units[c] = {r, n + k, 2 * n + shape.BoxOf(r, k)};
    for (int u : units[c]) at(d, u) = c;
  }
  cycles_.reserve(static_cast<size_t>(n) * (n - 1));  // pairs x ~2 cycles each
  std::vector<int> seen(cells, -1);  // per cell, the last pair (x * n + y) that reached it
  std::vector<int> members, queue;
  for (int x = 0; x < n; ++x) {
    for (int y = x + 1; y < n; ++y) {
      const int pair = x * n + y;
      // The cells of x and y, in components linked through shared units.
      for (int start_row = 0; start_row < n; ++start_row) {
        const int start = at(x, start_row);
        if (seen[start] == pair) continue;  // in a component found already
        members.clear();
        queue.assign(1, start);
        seen[start] = pair;
        while (!queue.empty()) {
          const int c = queue.back();
          queue.pop_back();
          members.push_back(c);
          const int other = solution[c] - 1 == x ? y : x;
          for (int u : units[c]) {
            const int p = at(other, u);
            if (seen[p] != pair) {
              seen[p] = pair;
              queue.push_back(p);
            }
          }
        }
        CellSet& cycle = cycles_.emplace_back();
        const auto index = static_cast<uint16_t>(cycles_.size() - 1);
        for (int c : members) {
          cycle.Add(c);
          cycle_of_[static_cast<size_t>(c) * n + (solution[c] - 1 == x ? y : x)] = index;
        }
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
