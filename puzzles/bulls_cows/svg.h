// The bulls-cows puzzle drawn as an SVG document (Family::RenderSvg): the
// clue table, one row per guess (its digits in boxes, then the bulls as
// filled dots and the cows as rings, with their counts), and a row of empty
// boxes for the secret, filled with its digits (in blue) when a solution is
// given.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::bulls_cows {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red and the secret's boxes stay empty.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::bulls_cows
