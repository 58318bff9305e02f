// Per unit and digit, where in the unit the digit may still go: the table
// the grader's techniques above singles read (grading_logic.h).
//
// Built from the candidates at the first call of Get() (a grid that singles
// fill never asks), then kept in step by Lose() as candidates go, instead
// of being rebuilt after every change.
//
// Thread safety: a value, used by one thread.
#pragma once

#include <cstdint>
#include <cstring>

#include "puzzles/sudoku/unit_geometry.h"

namespace foundry::puzzles::sudoku::grading {

template <int R, int C>
class DigitPositions {
 public:
  static constexpr int N = R * C;
  using Geo = UnitGeometry<R, C>;
  // where[u][d]: the indices within unit u (Geo::units order) of the open
  // cells where digit d (0-based) can go.
  using Where = uint32_t[3 * N][N];

  // The table for the candidates `cand` (per cell, bit d for digit d + 1;
  // 0 for a placed cell). After the first call, `cand` must be the one
  // every Lose() has followed.
  const Where& Get(const Geo& g, const uint16_t* cand) {
    if (!built_) {
      std::memset(where_, 0, sizeof(where_));
      for (int c = 0; c < N * N; ++c) {
        const int r = g.row[c], k = g.col[c];
        const uint32_t in_row = 1u << k, in_col = 1u << r, in_box = 1u << (r % R * C + k % C);
        uint32_t* row = where_[r];
        uint32_t* col = where_[N + k];
        uint32_t* box = where_[2 * N + g.box[c]];
        for (uint16_t b = cand[c]; b; b = static_cast<uint16_t>(b & (b - 1))) {
          const int d = __builtin_ctz(b);
          row[d] |= in_row;
          col[d] |= in_col;
          box[d] |= in_box;
        }
      }
      built_ = true;
    }
    return where_;
  }

  // Cell c lost the digits `lost`; nothing to do before the table is built.
  void Lose(const Geo& g, int c, uint16_t lost) {
    if (!built_) return;
    const int r = g.row[c], k = g.col[c];
    const uint32_t in_row = ~(1u << k), in_col = ~(1u << r), in_box = ~(1u << (r % R * C + k % C));
    uint32_t* row = where_[r];
    uint32_t* col = where_[N + k];
    uint32_t* box = where_[2 * N + g.box[c]];
    for (; lost; lost = static_cast<uint16_t>(lost & (lost - 1))) {
      const int d = __builtin_ctz(lost);
      row[d] &= in_row;
      col[d] &= in_col;
      box[d] &= in_box;
    }
  }

 private:
  Where where_;
  bool built_ = false;
};

}  // namespace foundry::puzzles::sudoku::grading
