// The bulls-cows answer as a player types it: the secret's digits, e.g.
// "1953". Spaces anywhere are ignored ("1 9 5 3").
//
// CheckAnswer() judges by the clues: the typed code must score every clue's
// bulls and cows (seed 003's scoring, computed here from the digits), not
// equal the stored secret; for a verified puzzle the two agree.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::bulls_cows {

// The solution's secret, e.g. "1953"; "" when `solution` is malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed code fits every clue. Errors (InvalidArgument): a
// malformed puzzle; text that is not a code of the puzzle's length (empty, a
// non-digit, too few or too many digits, a repeated digit, a leading 0 when
// the puzzle does not allow one), with the expected form in the message.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// "Type the 4 different digits of the secret (no leading zero), e.g. 1234."
std::string AnswerPrompt(const nlohmann::json& puzzle);

// Bulls and cows of `guess` against `secret` (equal-length digit strings).
struct Score {
  int bulls = 0;
  int cows = 0;
};
Score ScoreGuess(std::string_view guess, std::string_view secret);

}  // namespace foundry::puzzles::bulls_cows
