#include "puzzles/sudoku/codec.h"

#include <array>

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::puzzles::sudoku {

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object())
    return Status::InvalidArgument("puzzle must be an object with box and grid");
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "box" && key != "grid") {
      return Status::InvalidArgument(
          fmt::format("puzzle has unknown key '{}' (known: box, grid)", QuoteInput(key)));
    }
  }
  const auto box = puzzle.find("box");
  if (box == puzzle.end() || !box->is_array() || box->size() != 2 ||
      !(*box)[0].is_number_integer() || !(*box)[1].is_number_integer()) {
    return Status::InvalidArgument("puzzle 'box' must be [rows, columns], e.g. [3,3]");
  }
  const auto shape =
      ShapeFromName(fmt::format("{}x{}", (*box)[0].get<int64_t>(), (*box)[1].get<int64_t>()));
  if (!shape.ok()) return shape.status().WithContext("puzzle 'box'");
  const auto grid = puzzle.find("grid");
  if (grid == puzzle.end() || !grid->is_string())
    return Status::InvalidArgument("puzzle 'grid' must be a string");
  auto g = GridFromString(*shape, grid->get_ref<const std::string&>());
  if (!g.ok()) return g.status().WithContext("puzzle");
  return ParsedPuzzle{*shape, std::move(*g)};
}

Result<Grid> ParseSolution(const Shape& shape, const nlohmann::json& solution) {
  if (!solution.is_object()) return Status::InvalidArgument("solution must be an object with grid");
  for (const auto& [key, value] : solution.items()) {
    if (key != "grid") {
      return Status::InvalidArgument(
          fmt::format("solution has unknown key '{}' (known: grid)", QuoteInput(key)));
    }
  }
  const auto grid = solution.find("grid");
  if (grid == solution.end() || !grid->is_string()) {
    return Status::InvalidArgument("solution 'grid' must be a string");
  }
  auto g = GridFromString(shape, grid->get_ref<const std::string&>());
  if (!g.ok()) return g.status().WithContext("solution");
  for (size_t i = 0; i < g->size(); ++i) {
    if ((*g)[i] == 0)
      return Status::InvalidArgument(fmt::format("solution cell {} is empty", i + 1));
  }
  return g;
}

// Filled in place: a braced list would copy the grid's string.
nlohmann::json PuzzleJson(const Shape& shape, const Grid& grid) {
  nlohmann::json j;
  j["box"] = {shape.box_rows, shape.box_cols};
  j["grid"] = GridToString(grid);
  return j;
}

nlohmann::json SolutionJson(const Grid& grid) {
  nlohmann::json j;
  j["grid"] = GridToString(grid);
  return j;
}

Grid Relabel(const Grid& grid) {
  std::array<uint8_t, kMaxN + 1> map{};
  uint8_t next = 0;
  Grid out(grid.size(), 0);
  for (size_t i = 0; i < grid.size(); ++i) {
    const uint8_t v = grid[i];
    if (!v) continue;
    if (!map[v]) map[v] = ++next;
    out[i] = map[v];
  }
  return out;
}

std::string CanonicalBytes(const ParsedPuzzle& p) {
  return "sudoku|" + p.shape.Name() + "|" + GridToString(Relabel(p.grid));
}

std::string RenderText(const ParsedPuzzle& p) {
  const int n = p.shape.n(), br = p.shape.box_rows, bc = p.shape.box_cols;
  std::string out = fmt::format(
      "Sudoku {}x{} with {}x{} boxes, {} clues. Fill the grid so that every row, column and box "
      "holds each of {}..{} once.\n",
      n, n, br, bc, CountClues(p.grid), DigitChar(1), DigitChar(n));
  for (int r = 0; r < n; ++r) {
    std::string line;
    for (int c = 0; c < n; ++c) {
      if (c > 0) line += (c % bc == 0) ? " | " : " ";
      line += DigitChar(p.grid[r * n + c]);
    }
    if (r > 0 && r % br == 0) {
      std::string rule = line;
      for (char& ch : rule) ch = ch == '|' ? '+' : '-';
      out += rule + "\n";
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace foundry::puzzles::sudoku
