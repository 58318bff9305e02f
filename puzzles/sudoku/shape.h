// Sudoku geometry and the grid string format.
//
// A grid of box_rows x box_cols boxes holds N = box_rows * box_cols digits per
// row, column and box; cells are numbered row-major, 0 .. N*N-1. A grid is
// stored as one byte per cell: 0 empty, 1..N a digit. Its text form (the
// JSON "grid" string, docs/reference.md) is row-major, '.' for empty, '1'..'9' for
// 1..9 and 'A', 'B', ... for 10, 11, ... (so 16 is 'G').
//
// Thread safety: values and pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace foundry::puzzles::sudoku {

// The largest grid: 4x4 boxes, 16 digits, 256 cells.
inline constexpr int kMaxN = 16;
inline constexpr int kMaxCells = kMaxN * kMaxN;

struct Shape {
  int box_rows = 3;  // rows of one box
  int box_cols = 3;  // columns of one box

  int n() const { return box_rows * box_cols; }
  int cells() const { return n() * n(); }
  // "3x3"
  std::string Name() const;
  // The box holding row r, column c.
  int BoxOf(int r, int c) const { return (r / box_rows) * box_rows + c / box_cols; }
  friend bool operator==(const Shape&, const Shape&) = default;
};

// The shapes the family supports, default first: 3x3, 2x2, 2x3, 3x4, 4x4.
std::span<const Shape> SupportedShapes();

// The supported shape called `name` ("3x3"), or InvalidArgument.
Result<Shape> ShapeFromName(std::string_view name);

// One byte per cell, 0 = empty. Length shape.cells().
using Grid = std::vector<uint8_t>;

// '.', '1'..'9', 'A'.. for 0..N.
char DigitChar(int v);
// The text form of `grid`.
std::string GridToString(const Grid& grid);
// Parses a grid string for `shape`: exactly shape.cells() characters, each
// '.' or a digit of 1..N. Errors: InvalidArgument naming the position.
Result<Grid> GridFromString(const Shape& shape, std::string_view text);

// True when `grid` has no empty cell and every row, column and box holds
// each digit once.
bool IsCompleteSolution(const Shape& shape, const Grid& grid);

// Number of non-empty cells.
int CountClues(const Grid& grid);

}  // namespace foundry::puzzles::sudoku
