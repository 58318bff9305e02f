// The sudoku puzzle drawn as an SVG document (Family::RenderSvg): the grid
// with thin cell lines and thick box borders, the given digits in bold
// black and, when a solution is given, the other cells' digits in blue.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::sudoku {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red under the grid.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::sudoku
