// Locked candidates for solver.h's counting search on the big shapes: over
// every box-line intersection, a digit a box holds only in one line is not
// elsewhere in that line (pointing), and a digit a line holds only in one
// box is not elsewhere in that box (claiming).
//
// Thread safety: a pure function of its arguments.
#pragma once

#include <cstdint>

namespace foundry::puzzles::sudoku {

// One pass over the rows, then the columns, of an N x N grid (N = R*C) whose
// cell candidates are `cand` (bit d-1: digit d possible) and whose placed
// cells are marked in `done`. A cell left with one candidate is handed to
// `assign(cell)` (which places it and its naked singles; false on a
// contradiction). Returns -1 on a contradiction, 0 when nothing was
// removed, 1 otherwise.
template <int R, int C, typename Assign>
int LockedCandidates(uint16_t* cand, const uint8_t* done, Assign&& assign) {
  constexpr int N = R * C;
  using Mask = uint16_t;
  int changed = 0;
  int singles[N * N];
  int ns = 0;
  // Removes `gone` from open cell c; false when nothing is left.
  const auto drop = [&](int c, Mask gone) {
    const Mask m = cand[c];
    if (done[c] || !(m & gone)) return true;
    const Mask left = static_cast<Mask>(m & ~gone);
    if (!left) return false;
    cand[c] = left;
    changed = 1;
    if (!(left & (left - 1))) singles[ns++] = c;
    return true;
  };
  // Rows: seg[r][j], the candidates of row r within box column j (C cells).
  Mask seg[N][R];
  for (int r = 0; r < N; ++r) {
    for (int j = 0; j < R; ++j) {
      Mask m = 0;
      for (int x = 0; x < C; ++x) m = static_cast<Mask>(m | cand[r * N + j * C + x]);
      seg[r][j] = m;
    }
  }
  for (int r = 0; r < N; ++r) {
    const int band = r - r % R;
    for (int j = 0; j < R; ++j) {
      Mask in_box = 0, in_row = 0;
      for (int y = band; y < band + R; ++y)
        if (y != r) in_box = static_cast<Mask>(in_box | seg[y][j]);
      for (int i = 0; i < R; ++i)
        if (i != j) in_row = static_cast<Mask>(in_row | seg[r][i]);
      const Mask pointing = static_cast<Mask>(seg[r][j] & ~in_box);
      const Mask claiming = static_cast<Mask>(seg[r][j] & ~in_row);
      if (pointing & in_row) {
        for (int c = 0; c < N; ++c) {
          if (c / C != j && !drop(r * N + c, pointing)) return -1;
        }
      }
      if (claiming & in_box) {
        for (int y = band; y < band + R; ++y) {
          if (y == r) continue;
          for (int x = 0; x < C; ++x) {
            if (!drop(y * N + j * C + x, claiming)) return -1;
          }
        }
      }
    }
  }
  // Columns: col[c][i], the candidates of column c within box row i (R cells).
  Mask col[N][C];
  for (int c = 0; c < N; ++c) {
    for (int i = 0; i < C; ++i) {
      Mask m = 0;
      for (int y = 0; y < R; ++y) m = static_cast<Mask>(m | cand[(i * R + y) * N + c]);
      col[c][i] = m;
    }
  }
  for (int c = 0; c < N; ++c) {
    const int stack = c - c % C;
    for (int i = 0; i < C; ++i) {
      Mask in_box = 0, in_col = 0;
      for (int x = stack; x < stack + C; ++x)
        if (x != c) in_box = static_cast<Mask>(in_box | col[x][i]);
      for (int k = 0; k < C; ++k)
        if (k != i) in_col = static_cast<Mask>(in_col | col[c][k]);
      const Mask pointing = static_cast<Mask>(col[c][i] & ~in_box);
      const Mask claiming = static_cast<Mask>(col[c][i] & ~in_col);
      if (pointing & in_col) {
        for (int r = 0; r < N; ++r) {
          if (r / R != i && !drop(r * N + c, pointing)) return -1;
        }
      }
      if (claiming & in_box) {
        for (int x = stack; x < stack + C; ++x) {
          if (x == c) continue;
          for (int y = 0; y < R; ++y) {
            if (!drop((i * R + y) * N + x, claiming)) return -1;
          }
        }
      }
    }
  }
  for (int k = 0; k < ns; ++k) {
    if (!done[singles[k]] && !assign(singles[k])) return -1;
  }
  return changed;
}

}  // namespace foundry::puzzles::sudoku
