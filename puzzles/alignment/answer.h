// The alignment answer as a player types it: the cells where gaps go, each
// as c<column>r<row> with 0-based column (left to right) and row (top to
// bottom, as numbered in the text and the SVG), e.g. "c0r2 c0r5 c3r4";
// separated by spaces or commas, in any order, case and spacing free
// ("C0 R2, c3r4"). "none" for no gap at all.
//
// Gap cells name a layout: in each column, the cells from row 0 down are
// the gaps where named and the column's bricks in order elsewhere.
//
// CheckAnswer() judges by the rules, not by comparing with the stored
// layout (many layouts reach the target): the layout must fit (within the
// height, no gap after the column's last brick, at most max_gaps gaps) and
// score at least the target score. ScoreAnswer() gives the layout's points
// (a player's solution worth keeping: docs/players.md).
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles::alignment {

// The solution's gap cells, column by column, top to bottom
// ("c0r2 c0r5 c3r4"), or "none". "" when `puzzle` or `solution` is malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed gaps make a layout that fits and reaches the target.
// False for gaps that do not fit (beyond the height, after the last brick,
// more than max_gaps). Errors (InvalidArgument, with the expected form): a
// malformed puzzle; empty text; anything but c<number>r<number> pairs or
// "none"; a column or row outside the board; the same cell twice.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// The points of the typed gaps' layout, beside the puzzle's target, greedy
// and best scores; nullopt when the gaps do not fit (no layout, no score).
// Errors as CheckAnswer's.
Result<std::optional<AnswerScore>> ScoreAnswer(const nlohmann::json& puzzle, std::string_view text);

// One line with the form and an example.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::alignment
