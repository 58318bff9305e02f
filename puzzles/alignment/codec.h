// The alignment puzzle JSON, read strictly, and its other renderings.
//
// Puzzle:   {"height":8,"columns":["ACGT",...],"guides":["A","CG",...],
//            "row_bonus":2,"base_score":..,"target_score":..,
//            "greedy_score":..,"best_score":..}
//           plus "max_gaps":N only when the player's gaps are limited
//           (N > 0; the specification's shape has no key for it, and without it the
//           limit would be lost; absent means 0, only the height limits).
// Solution: {"layout":["A-CGT",...],"score":..}   ('-' a gap)
//
// Thread safety: pure functions.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/alignment/analysis.h"
#include "puzzles/alignment/board.h"

namespace foundry::puzzles::alignment {

struct ParsedPuzzle {
  Board board;
  int base_score = 0, target_score = 0, greedy_score = 0, best_score = 0;
};

// Errors (InvalidArgument, naming the field): not an object, an unknown key,
// a missing key, height outside kMinHeight..kMaxHeight, not
// kMinColumns..kMaxColumns columns, a column empty, longer than height or
// with a letter outside ACGT, guides not one per row or a guide empty, with
// a repeated or unknown letter, row_bonus outside 1..kMaxRowBonus, max_gaps
// negative or above the bricks' room, a score that is not an integer.
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);

// The layout and claimed score of a solution. Errors (InvalidArgument): not
// {"layout":[one string per column],"score":N}, a letter other than ACGT or
// '-'. Whether the layout fits the board is for the caller (IsValidLayout).
Result<std::pair<Layout, int>> ParseSolution(const nlohmann::json& solution, const Board& board);

// The puzzle JSON of an analysed board.
nlohmann::json PuzzleJson(const Board& board, const Analysis& analysis);

// "H|bonus|max_gaps|guide,guide,..|col,col,..": columns SORTED, because the
// score is the same under any order of the columns (it counts per row), so
// two boards with the same columns in another order are one puzzle. Guides
// are written in ACGT order. Scores are derived, not part of the identity.
// Never change the layout: puzzle ids hash it.
std::string CanonicalBytes(const Board& board);

// The board as a person reads it: guides beside each row, then the scores.
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::alignment
