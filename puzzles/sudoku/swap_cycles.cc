#include "puzzles/sudoku/swap_cycles.h"

namespace foundry::puzzles::sudoku {

SwapCycles::SwapCycles(const Shape& shape, const Grid& solution)
    : n_(shape.n()), digit_(solution), cycle_(static_cast<size_t>(shape.cells()) * shape.n()) {
  const int n = n_, cells = shape.cells();
  // where[d][u]: the cell holding digit d (0-based) in unit u (rows, then
  // columns, then boxes).
  std::vector<int> where(static_cast<size_t>(n) * 3 * n);
  auto at = [&](int d, int u) -> int& { return where[static_cast<size_t>(d) * 3 * n + u]; };
  for (int c = 0; c < cells; ++c) {
    const int d = solution[c] - 1, r = c / n, k = c % n;
    at(d, r) = c;
    at(d, n + k) = c;
    at(d, 2 * n + shape.BoxOf(r, k)) = c;
  }
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
          const int r = c / n, k = c % n;
          for (int u : {r, n + k, 2 * n + shape.BoxOf(r, k)}) {
            const int p = at(other, u);
            if (seen[p] != pair) {
              seen[p] = pair;
              queue.push_back(p);
            }
          }
        }
        CellSet all;
        for (int c : members) all.Add(c);
        for (int c : members) {
          const int other = solution[c] - 1 == x ? y : x;
          CellSet& cycle = cycle_[static_cast<size_t>(c) * n + other];
          cycle = all;
          cycle.Remove(c);
        }
      }
    }
  }
}

bool SwapCycles::HasFreeCycle(int cell, const CellSet& clues) const {
  for (int x = 0; x < n_; ++x) {
    if (x == digit_[cell] - 1) continue;
    if (!cycle_[static_cast<size_t>(cell) * n_ + x].Meets(clues)) return true;
  }
  return false;
}

}  // namespace foundry::puzzles::sudoku
