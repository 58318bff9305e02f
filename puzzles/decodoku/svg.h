// The decodoku puzzle drawn as an SVG document (Family::RenderSvg): the
// grid of numbers, each square tinted by its cluster (the cluster's letter,
// as in the text form, small in the corner), columns (x) and rows (y)
// numbered from 0 as the answer form counts them. With a solution, its
// moves as numbered arrows on the grid and listed below, with the par.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::decodoku {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::decodoku
