// The balance puzzle drawn as an SVG document (Family::RenderSvg).
//
// Deduction: one row per weighing, the coins of each pan as numbered discs
// in a pan box, a scale between them tilted by the result, and the result in
// words; with a solution, the counterfeit's disc is marked in every weighing
// and the answer written below.
// Strategy: the statement and the coins; with a solution, the decision tree
// as an indented outline (each weighing, its three results, the leaves
// naming the coin), connected by lines.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::balance {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red in place of the answer.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::balance
