// The decodoku puzzle JSON, read strictly, and its other renderings.
//
// Puzzle:   {"size":8,"grid":[[row 0],...],"clusters":[[row 0],...]}
//           grid[y][x] in 0..9 (0 empty); clusters[y][x] the cluster id, 0
//           exactly where the grid is 0 (ids as generated: 1, 2, ... by
//           first appearance in row-major order; any positive ids read).
// Solution: {"moves":[[x1,y1,x2,y2],...],"par":7}
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/decodoku/grid.h"

namespace foundry::puzzles::decodoku {

// The most moves a solution may list (far above any par).
inline constexpr int kMaxSolutionMoves = 4096;

// Errors (InvalidArgument, naming the field): not an object, an unknown or
// missing key, size outside kMinSize..kMaxSize, grid or clusters not size
// rows of size integers, a value outside 0..9, a cluster id negative or
// above size*size*16, a cluster id 0 on a number or nonzero on an empty square.
Result<Grid> ParsePuzzle(const nlohmann::json& puzzle);

// The moves and claimed par. Errors (InvalidArgument): not
// {"moves":[[x1,y1,x2,y2],...],"par":N}, more than kMaxSolutionMoves moves.
// Whether the moves are legal is for the caller.
Result<std::pair<std::vector<Move>, int>> ParseSolution(const nlohmann::json& solution);

nlohmann::json PuzzleJson(const Grid& grid);  // clusters renumbered
nlohmann::json SolutionJson(const std::vector<Move>& moves);

// The least, over the 8 symmetries of the square, of
// "L|digits row-major|cluster ids renumbered by first appearance": the same
// position turned or mirrored is the same puzzle. Never change the layout:
// puzzle ids hash it.
std::string CanonicalBytes(const Grid& grid);

// The grid with '.' for empty squares, then the clusters as letters.
std::string RenderText(const Grid& grid);

}  // namespace foundry::puzzles::decodoku
