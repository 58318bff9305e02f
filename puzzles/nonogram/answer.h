// Typed nonogram answers: the grid row by row, '#' for a filled cell and
// '.' for an empty one.
//   written:  "#..#. .##.. ..." (rows top to bottom, one space between)
//   accepted: '#' or '1' filled, '.', '-' or '0' empty; rows separated by
//             spaces, '/', ',', ';' or new lines, or not separated at all
//             (then exactly W x H cells, row after row). When the text has
//             exactly H separated pieces, each must hold W cells. Letters
//             are refused, 'x' included: some players mark filled cells
//             with it, others the cells they crossed out.
// Judged by the rules: any grid that shows every clue is right.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::nonogram {

// Family::FormatAnswer.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);
// Family::CheckAnswer: true when the grid shows every clue; InvalidArgument
// for text that is not a grid of the puzzle's size.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);
// Family::AnswerPrompt.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::nonogram
