// The secret-number answer as a player types it: the hidden number in
// decimal, e.g. "909". Spaces anywhere are ignored ("9 0 9").
//
// CheckAnswer() judges by the rules (verifier.h's SatisfiesRules), not by
// comparing with the stored solution; for a verified puzzle the two agree,
// since exactly one number satisfies the rules.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::secret_number {

// The solution's number, e.g. "909"; "" when `solution` is malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// True when the typed number satisfies every rule. Errors (InvalidArgument):
// a malformed puzzle; text that is not a number of the puzzle's length
// without a leading zero (empty, a non-digit, too few or too many digits,
// a leading 0), with the expected form in the message.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// "Type the 3-digit number (no leading zero), e.g. 123."
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::secret_number
