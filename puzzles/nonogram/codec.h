// The nonogram JSON shapes, read strictly, and what makes two puzzles the same.
//   puzzle:   {"width":W,"height":H,"rows":[[3,1],[],...],"columns":[[2],...]}
//             W, H in 5..40; H row clues top to bottom, W column clues left
//             to right; a clue is the run lengths in order, [] for no run,
//             and must fit its line.
//   solution: {"grid":["#..#",...]}  H strings of W characters, '#' filled,
//             '.' empty.
//
// Thread safety: pure functions.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/nonogram/lines.h"

namespace foundry::puzzles::nonogram {

// A statement, as read from its JSON: the clues and the grid's size.
using ParsedPuzzle = Clues;

// InvalidArgument naming the field for anything but the shape above
// (unknown or missing key, a size out of range, a wrong number of clues, a
// run that is not a positive integer, a clue that does not fit its line).
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);
// The solution grid for a W x H puzzle; InvalidArgument naming the row and
// character when malformed.
Result<Rows> ParseSolution(const ParsedPuzzle& p, const nlohmann::json& solution);

nlohmann::json PuzzleJson(const ParsedPuzzle& p);
nlohmann::json SolutionJson(const Rows& rows, int width);

// The grid as H strings of '#' and '.'.
std::vector<std::string> GridStrings(const Rows& rows, int width);

// "nonogram|WxH|" + the row clues + "|" + the column clues: the clue lists
// are the puzzle, so a mirrored or rotated puzzle is another puzzle.
std::string CanonicalBytes(const ParsedPuzzle& p);
// Column clues stacked above the grid, row clues to its left.
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::nonogram
