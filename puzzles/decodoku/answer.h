// The decodoku answer as a player types it: the moves in order, each the
// square of the number that moves, "x,y" (0-based, x the column from the
// left, y the row from the top, as grid[y][x]), then the direction it moves:
// U (up, y - 1), D (down, y + 1), L (left, x - 1) or R (right, x + 1).
//   "3,4R 2,2D 5,1L"
// Moves are separated by spaces, ';' or new lines; case and spacing are
// free ("3, 4 right; (2,2) down"). The target square may be given instead
// of the direction: "3,4>4,4". "none" is no move at all.
//
// CheckAnswer() judges by the rules, not by comparing with the stored
// moves (many move lists clear a grid): every move sends a number to a
// neighbouring square on the grid, the moves clear the grid, and there are
// at most par of them (par: the solution's, the fewest known).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::decodoku {

// The solution's moves in the form above ("3,4R 2,2D"). "" when `solution`
// is malformed or holds a move that is not one step.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed moves are legal, clear the grid and number at most
// the solution's par. False for a move from an empty square or off the
// grid. Errors (InvalidArgument, with the expected form): a malformed
// puzzle or solution; empty text; a move that is not x,y and a direction
// (or >x,y); a square outside the grid; a target that is not a neighbour.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution,
                         std::string_view text);

// One line with the form, the par (recomputed from the puzzle by the
// decoders, as Verify() does) and an example.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::decodoku
