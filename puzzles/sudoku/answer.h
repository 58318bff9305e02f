// The sudoku answer as a player types it: the full grid row by row, rows
// separated by '/', e.g. "534678912/672195348/..." (9 rows of 9 for 3x3
// boxes). Digits above 9 are letters, A = 10 .. G = 16, in either case.
// Spaces and new lines anywhere are ignored, and the '/' may be left out
// (then exactly N*N symbols); when a '/' is used, every row must hold N.
//
// CheckAnswer() judges by the rules: every row, column and box holds each
// digit once and every given digit is kept; not by comparing with the stored
// solution (for a verified puzzle, the only grid that does so).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::sudoku {

// The solution's grid, rows joined by '/'. "" when malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed grid is complete, keeps the givens and breaks no row,
// column or box. Errors (InvalidArgument, with the expected form): a
// malformed puzzle; empty text; a symbol that is not a digit 1..N (an empty
// cell '.' or '0' included), naming its row and column; too few or too many
// symbols; a '/'-separated row of another length than N.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// One line with the form and an example.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::sudoku
