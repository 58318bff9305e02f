// Sudoku JSON shapes (docs/reference.md), canonical bytes and plain text.
//   puzzle   {"box":[3,3],"grid":"53..7...."}   row-major, '.' empty
//   solution {"grid":"534678912..."}
//
// Thread safety: pure functions.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

struct ParsedPuzzle {
  Shape shape;
  Grid grid;
};

// Errors: InvalidArgument naming the key or character at fault (unknown key,
// unsupported box, wrong grid length, bad character).
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);
// The solution grid for `shape`; it must be complete (no '.').
Result<Grid> ParseSolution(const Shape& shape, const nlohmann::json& solution);

nlohmann::json PuzzleJson(const Shape& shape, const Grid& grid);
nlohmann::json SolutionJson(const Grid& grid);

// The grid with digits renamed by first appearance in row-major order (the
// first digit seen becomes 1, the next new one 2, ...). Two puzzles equal up
// to a renaming of digits have the same relabelled grid.
Grid Relabel(const Grid& grid);

// "sudoku|3x3|" + the relabelled grid string.
std::string CanonicalBytes(const ParsedPuzzle& p);

// A header line and the grid with box borders.
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::sudoku
