// The secret-number puzzle JSON, read strictly, and its other renderings.
//
// Puzzle:   {"digits":3,"rules":[{"subject":"diff:1,2","op":"eq","value":9,
//             "text":"The difference of my first two digits is 9."},...]}
// Solution: {"number":909}
// "text" is optional on input and never trusted: RenderText() and the
// canonical bytes are computed from subject, op and value alone.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/secret_number/rules.h"

namespace foundry::puzzles::secret_number {

struct ParsedPuzzle {
  int digits = 3;
  std::vector<Rule> rules;
};

// Errors (InvalidArgument, naming the problem): not an object, an unknown
// key, "digits" missing or outside 2..6, "rules" missing, not an array or
// longer than kRulesLimit, a rule that is not an object, has an unknown key,
// an unknown subject or op, a subject invalid for the digit count, a
// non-integer value, a "mult" value below 2, a non-string "text".
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);

// The hidden number of a solution. Errors (InvalidArgument): not an object
// {"number": N} with N a `digits`-digit integer.
Result<int64_t> ParseSolution(const nlohmann::json& solution, int digits);

// "3|diff:1,2 eq 9;diff:2,3 eq 9": digits, then the rule keys sorted, so
// the same rules in any order give the same bytes. Never change the layout:
// puzzle ids hash it.
std::string CanonicalBytes(const ParsedPuzzle& p);

// "I am thinking of a 3-digit number (no leading zero).\n1. ...\n2. ...\n"
// "What is my number?"
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::secret_number
