// The zebra answer as a player types it: one entry per category, the
// category's name, a colon, then its items in house order (house 1, the
// leftmost, first), separated by commas; entries separated by ';' or new
// lines, in any order. For example
//   "color: yellow, blue, red, ivory, green; pet: fox, horse, snails, dog, zebra"
// Names are matched ignoring case and runs of spaces ("Orange  juice").
// Every category must be given once. (A name that itself holds ':', ',' or
// ';' cannot be typed; generated puzzles have none.)
//
// CheckAnswer() judges by the clues (model.h's Holds), not by comparing
// with the stored solution; for a verified puzzle the two agree.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::zebra {

// The solution in the form above, categories in the puzzle's order, joined
// by "; ". "" when `puzzle` or `solution` is malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed placement satisfies every clue. Errors
// (InvalidArgument, with the expected form): a malformed puzzle; empty
// text; an entry without ':'; an unknown or repeated category; a category
// missing; another number of items than houses; an unknown or repeated item.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// One line with the form and an example built from the first category.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::zebra
