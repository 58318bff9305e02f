// The units (rows, columns, boxes) and peers of one box shape as constant
// tables, built once per shape: the solver's and the grader's loops index
// them instead of computing row, column and box numbers.
//
// Thread safety: Get() builds the tables on first use (thread-safe static
// initialisation); they are only read afterwards.
#pragma once

#include <array>
#include <cstdint>

#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

template <int R, int C>
struct UnitGeometry {
  static constexpr int N = R * C;
  static constexpr int kCells = N * N;
  static constexpr int kUnits = 3 * N;
  static constexpr int kPeers = 2 * (N - 1) + (R - 1) * (C - 1);
  static_assert(kCells <= 256, "cell numbers are bytes");

  // Unit u: row u, column u - N, box u - 2N; each unit's cells ascending.
  std::array<std::array<uint8_t, N>, kUnits> units;
  // Per cell: its row, column and box (Shape::BoxOf numbering).
  std::array<uint8_t, kCells> row, col, box;
  // Per cell: the cells sharing a unit with it, ascending.
  std::array<std::array<uint8_t, kPeers>, kCells> peers;
  // Per cell: its three units as bits (bit u for unit u).
  std::array<uint64_t, kCells> unit_bits;
  static_assert(kUnits <= 64, "unit sets are 64-bit words");

  static const UnitGeometry& Get() {
    static const UnitGeometry g;
    return g;
  }

  // Whether cells a and b share a unit.
  bool Sees(int a, int b) const { return row[a] == row[b] || col[a] == col[b] || box[a] == box[b]; }

 private:
  UnitGeometry() {
    const Shape shape{R, C};
    int filled[kUnits] = {};
    for (int c = 0; c < kCells; ++c) {
      row[c] = static_cast<uint8_t>(c / N);
      col[c] = static_cast<uint8_t>(c % N);
      box[c] = static_cast<uint8_t>(shape.BoxOf(c / N, c % N));
      unit_bits[c] = 0;
      for (int u : {int{row[c]}, N + col[c], 2 * N + box[c]}) {
        units[u][filled[u]++] = static_cast<uint8_t>(c);
        unit_bits[c] |= uint64_t{1} << u;
      }
    }
    for (int c = 0; c < kCells; ++c) {
      int k = 0;
      for (int p = 0; p < kCells; ++p) {
        if (p != c && Sees(c, p)) peers[c][k++] = static_cast<uint8_t>(p);
      }
    }
  }
};

}  // namespace foundry::puzzles::sudoku
