#include "puzzles/sudoku/shape.h"

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::puzzles::sudoku {

std::string Shape::Name() const { return fmt::format("{}x{}", box_rows, box_cols); }

std::span<const Shape> SupportedShapes() {
  static constexpr Shape kShapes[] = {{3, 3}, {2, 2}, {2, 3}, {3, 4}, {4, 4}};
  return kShapes;
}

Result<Shape> ShapeFromName(std::string_view name) {
  std::string known;
  for (const Shape& s : SupportedShapes()) {
    if (s.Name() == name) return s;
    known += known.empty() ? "" : ", ";
    known += s.Name();
  }
  return Status::InvalidArgument(
      fmt::format("unknown box '{}' (known: {})", QuoteInput(name), known));
}

char DigitChar(int v) {
  if (v <= 0) return '.';
  if (v <= 9) return static_cast<char>('0' + v);
  return static_cast<char>('A' + (v - 10));
}

std::string GridToString(const Grid& grid) {
  std::string s(grid.size(), '.');
  for (size_t i = 0; i < grid.size(); ++i) s[i] = DigitChar(grid[i]);
  return s;
}

Result<Grid> GridFromString(const Shape& shape, std::string_view text) {
  const int n = shape.n();
  if (static_cast<int>(text.size()) != shape.cells()) {
    return Status::InvalidArgument(fmt::format("grid must have {} characters for box {}, got {}",
                                               shape.cells(), shape.Name(), text.size()));
  }
  Grid g(text.size(), 0);
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    int v = -1;
    if (ch == '.')
      v = 0;
    else if (ch >= '1' && ch <= '9')
      v = ch - '0';
    else if (ch >= 'A' && ch <= 'Z')
      v = 10 + (ch - 'A');
    if (v < 0 || v > n) {
      return Status::InvalidArgument(
          fmt::format("grid character {} ('{}') is not '.' or a digit 1..{} ('{}' is the largest)",
                      i + 1, ch, n, DigitChar(n)));
    }
    g[i] = static_cast<uint8_t>(v);
  }
  return g;
}

bool IsCompleteSolution(const Shape& shape, const Grid& grid) {
  const int n = shape.n();
  if (static_cast<int>(grid.size()) != shape.cells()) return false;
  const uint32_t full = (1u << n) - 1;
  std::array<uint32_t, kMaxN> row{}, col{}, box{};
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const int v = grid[r * n + c];
      if (v < 1 || v > n) return false;
      const uint32_t bit = 1u << (v - 1);
      const int b = shape.BoxOf(r, c);
      if ((row[r] & bit) || (col[c] & bit) || (box[b] & bit)) return false;
      row[r] |= bit;
      col[c] |= bit;
      box[b] |= bit;
    }
  }
  for (int i = 0; i < n; ++i) {
    if (row[i] != full || col[i] != full || box[i] != full) return false;
  }
  return true;
}

int CountClues(const Grid& grid) {
  int k = 0;
  for (uint8_t v : grid) k += v != 0;
  return k;
}

}  // namespace foundry::puzzles::sudoku
