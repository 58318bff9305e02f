// The nonogram drawing: one standalone SVG document (puzzles/svg.h), the
// grid with its column clues above and row clues to the left.
//
// Thread safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace foundry::puzzles::nonogram {

// Family::RenderSvg: the clues and an empty grid, with the solution's
// filled cells drawn in when `solution` is given. Never fails.
std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution);

}  // namespace foundry::puzzles::nonogram
