// The alignment puzzle drawn as an SVG document (Family::RenderSvg): the
// board of W columns x H rows with one coloured brick per letter (A green,
// C blue, G orange, T red), columns and rows numbered from 0 as the answer
// form counts them, each row's guide as coloured chips on the left, bricks
// that match their row's guide outlined, and each row's points on the
// right. Without a solution the board is as generated (no gaps); with one,
// its layout, the gaps drawn as dashed empty cells. The scores below.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::alignment {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed or non-fitting `solution` is noted in red and the board drawn
// without gaps.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::alignment
