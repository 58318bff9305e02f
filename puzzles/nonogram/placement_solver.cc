#include "puzzles/nonogram/placement_solver.h"

#include <utility>

namespace foundry::puzzles::nonogram {
namespace {

constexpr int kMaxRuns = (kMaxSide + 1) / 2;

// Known-cell counts over prefixes, for "no known filled/empty in [a, b)".
struct Prefix {
  int filled[kMaxSide + 1];
  int empty[kMaxSide + 1];
  bool NoFilled(int a, int b) const { return filled[b] == filled[a]; }
  bool NoEmpty(int a, int b) const { return empty[b] == empty[a]; }
};

}  // namespace

bool PlaceLine(const Clue& clue, std::vector<int8_t>& cells) {
  const int n = static_cast<int>(cells.size());
  const int k = static_cast<int>(clue.size());
  Prefix pre;
  pre.filled[0] = pre.empty[0] = 0;
  for (int i = 0; i < n; ++i) {
    pre.filled[i + 1] = pre.filled[i] + (cells[static_cast<size_t>(i)] == kFilled);
    pre.empty[i + 1] = pre.empty[i] + (cells[static_cast<size_t>(i)] == kEmpty);
  }
  const auto can_empty = [&](int i) { return cells[static_cast<size_t>(i)] != kFilled; };
  const int stride = n + 1;
  // before[j*stride + i]: runs 0..j-1 placed in cells [0, i), the rest empty.
  // after[j*stride + i]: runs j..k-1 placed in cells [i, n), the rest empty.
  std::vector<uint8_t> before(static_cast<size_t>((k + 1) * stride), 0);
  std::vector<uint8_t> after(static_cast<size_t>((k + 1) * stride), 0);
  const auto B = [&](int j, int i) -> uint8_t& {
    return before[static_cast<size_t>(j * stride + i)];
  };
  const auto A = [&](int j, int i) -> uint8_t& {
    return after[static_cast<size_t>(j * stride + i)];
  };
  for (int i = 0; i <= n; ++i) B(0, i) = pre.NoFilled(0, i);
  for (int j = 1; j <= k; ++j) {
    const int len = clue[static_cast<size_t>(j - 1)];
    for (int i = 1; i <= n; ++i) {
      bool ok = can_empty(i - 1) && B(j, i - 1);
      const int s = i - len;
      if (!ok && s >= 0 && pre.NoEmpty(s, i)) {
        ok = j == 1 ? B(0, s) : (s >= 1 && can_empty(s - 1) && B(j - 1, s - 1));
      }
      B(j, i) = ok;
    }
  }
  if (!B(k, n)) return false;
  for (int i = 0; i <= n; ++i) A(k, i) = pre.NoFilled(i, n);
  for (int j = k - 1; j >= 0; --j) {
    const int len = clue[static_cast<size_t>(j)];
    for (int i = n - 1; i >= 0; --i) {
      bool ok = can_empty(i) && A(j, i + 1);
      const int e = i + len;
      if (!ok && e <= n && pre.NoEmpty(i, e)) {
        ok = j == k - 1 ? A(k, e) : (e < n && can_empty(e) && A(j + 1, e + 1));
      }
      A(j, i) = ok;
    }
  }
  uint8_t may_fill[kMaxSide] = {}, may_empty[kMaxSide] = {};
  for (int c = 0; c < n; ++c) {
    if (!can_empty(c)) continue;
    for (int j = 0; j <= k && !may_empty[c]; ++j) {
      may_empty[c] = B(j, c) && A(j, c + 1);
    }
  }
  for (int j = 0; j < k; ++j) {
    const int len = clue[static_cast<size_t>(j)];
    for (int s = 0; s + len <= n; ++s) {
      if (!pre.NoEmpty(s, s + len)) continue;
      const bool left = j == 0 ? B(0, s) : (s >= 1 && can_empty(s - 1) && B(j, s - 1));
      if (!left) continue;
      const int e = s + len;
      const bool right = j == k - 1 ? A(k, e) : (e < n && can_empty(e) && A(j + 1, e + 1));
      if (!right) continue;
      for (int c = s; c < e; ++c) may_fill[c] = 1;
    }
  }
  for (int c = 0; c < n; ++c) {
    int8_t& v = cells[static_cast<size_t>(c)];
    if (v != kUnknown) continue;
    if (!may_fill[c])
      v = kEmpty;
    else if (!may_empty[c])
      v = kFilled;
  }
  return true;
}

namespace {

class Search {
 public:
  Search(const Clues& clues, int limit, int64_t max_nodes)
      : clues_(clues), limit_(limit), max_nodes_(max_nodes) {}

  SearchCount Run() {
    std::vector<int8_t> grid(static_cast<size_t>(clues_.width * clues_.height), kUnknown);
    std::vector<uint8_t> dirty(static_cast<size_t>(clues_.width + clues_.height), 1);
    Visit(std::move(grid), std::move(dirty));
    return result_;
  }

 private:
  // Line l: rows 0..H-1, then columns.
  bool Propagate(std::vector<int8_t>& grid, std::vector<uint8_t>& dirty) const {
    const int w = clues_.width, h = clues_.height;
    std::vector<int8_t> line;
    for (bool changed = true; changed;) {
      changed = false;
      for (int l = 0; l < w + h; ++l) {
        if (!dirty[static_cast<size_t>(l)]) continue;
        dirty[static_cast<size_t>(l)] = 0;
        const bool row = l < h;
        const int n = row ? w : h;
        const auto at = [&](int i) -> int8_t& {
          return grid[static_cast<size_t>(row ? l * w + i : i * w + (l - h))];
        };
        line.resize(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) line[static_cast<size_t>(i)] = at(i);
        const Clue& clue =
            row ? clues_.rows[static_cast<size_t>(l)] : clues_.columns[static_cast<size_t>(l - h)];
        if (!PlaceLine(clue, line)) return false;
        for (int i = 0; i < n; ++i) {
          if (at(i) != line[static_cast<size_t>(i)]) {
            at(i) = line[static_cast<size_t>(i)];
            dirty[static_cast<size_t>(row ? h + i : i)] = 1;  // the crossing line
            changed = true;
          }
        }
      }
    }
    return true;
  }

  // Failed-cell detection before each branch: a cell whose value, with
  // line propagation, contradicts the clues takes the other value; repeated
  // until no cell fails. Returns false when both values of a cell fail.
  // It keeps the search tree small on puzzles that need suppositions.
  bool FailedCells(std::vector<int8_t>& grid) const {
    const size_t lines = static_cast<size_t>(clues_.width + clues_.height);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < grid.size(); ++i) {
        if (grid[i] != kUnknown) continue;
        for (int8_t v : {kFilled, kEmpty}) {
          std::vector<int8_t> g = grid;
          g[i] = v;
          std::vector<uint8_t> d(lines, 0);
          d[i / static_cast<size_t>(clues_.width)] = 1;
          d[static_cast<size_t>(clues_.height) + i % static_cast<size_t>(clues_.width)] = 1;
          if (Propagate(g, d)) continue;
          grid[i] = v == kFilled ? kEmpty : kFilled;
          std::vector<uint8_t> d2(lines, 0);
          d2[i / static_cast<size_t>(clues_.width)] = 1;
          d2[static_cast<size_t>(clues_.height) + i % static_cast<size_t>(clues_.width)] = 1;
          if (!Propagate(grid, d2)) return false;
          changed = true;
          break;
        }
      }
    }
    return true;
  }

  void Visit(std::vector<int8_t> grid, std::vector<uint8_t> dirty) {
    if (result_.solutions >= limit_ || result_.exhausted) return;
    if (++result_.nodes > max_nodes_) {
      result_.exhausted = true;
      return;
    }
    if (!Propagate(grid, dirty)) return;
    if (!FailedCells(grid)) return;
    // Branch on the unknown cell of the row with the fewest unknown cells:
    // a nearly settled line resolves quickly either way.
    const int w = clues_.width, h = clues_.height;
    int best = -1, best_open = w + 1;
    for (int r = 0; r < h; ++r) {
      int open = 0, first = -1;
      for (int c = 0; c < w; ++c) {
        if (grid[static_cast<size_t>(r * w + c)] == kUnknown) {
          if (first < 0) first = r * w + c;
          ++open;
        }
      }
      if (open > 0 && open < best_open) best_open = open, best = first;
    }
    if (best < 0) {
      ++result_.solutions;
      return;
    }
    for (int8_t v : {kFilled, kEmpty}) {
      std::vector<int8_t> g = grid;
      g[static_cast<size_t>(best)] = v;
      std::vector<uint8_t> d(static_cast<size_t>(w + h), 0);
      d[static_cast<size_t>(best / w)] = 1;
      d[static_cast<size_t>(h + best % w)] = 1;
      Visit(std::move(g), std::move(d));
    }
  }

  const Clues& clues_;
  const int limit_;
  const int64_t max_nodes_;
  SearchCount result_;
};

}  // namespace

SearchCount CountSolutions(const Clues& clues, int limit, int64_t max_nodes) {
  return Search(clues, limit, max_nodes).Run();
}

}  // namespace foundry::puzzles::nonogram
