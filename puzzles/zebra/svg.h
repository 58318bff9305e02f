// The zebra puzzle drawn as an SVG document (Family::RenderSvg): a table of
// categories (rows) by houses (columns, house 1 leftmost) with empty cells,
// filled with the solution's items (in blue) when a solution is given, then
// the items of every category and the numbered clues as text.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::zebra {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red and the cells stay empty.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::zebra
