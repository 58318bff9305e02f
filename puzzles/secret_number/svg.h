// The secret-number puzzle drawn as an SVG document (Family::RenderSvg):
// the statement, one numbered line per rule, and a row of empty boxes, one
// per digit, filled with the answer's digits (in blue) when a solution is
// given.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::secret_number {

// A complete SVG document; svg::ErrorDocument() for a malformed puzzle. A
// malformed `solution` is noted in red under the boxes, which stay empty.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::secret_number
