// The bulls-cows puzzle JSON, read strictly, and its other renderings.
//
// Puzzle:   {"length":4,"leading_zero":false,
//            "clues":[{"guess":"1235","bulls":1,"cows":2},...]}
// Solution: {"secret":"1953"}
// Codes are strings of `length` distinct digits. A guess may start with 0
// even when leading_zero is false (it is a legal question; the generator
// never asks it); the secret may only when leading_zero is true.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::bulls_cows {

// Upper bound of the max_clues parameter, and the most clues Verify() reads.
inline constexpr int kCluesLimit = 30;

struct Clue {
  std::string guess;
  int bulls = 0;
  int cows = 0;
};

struct ParsedPuzzle {
  int length = 4;
  bool leading_zero = false;
  std::vector<Clue> clues;
};

// Errors (InvalidArgument, naming the field): not an object, an unknown key,
// "length" missing or outside 3..6, "leading_zero" not a boolean, "clues"
// not an array or longer than kCluesLimit, a clue that is not an object or
// has an unknown key, a guess that is not `length` distinct digits, bulls or
// cows not integers, negative, or summing above the length.
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);

// The secret of a solution. Errors (InvalidArgument): not {"secret": S}
// with S `length` distinct digits, not starting with 0 unless leading_zero.
Result<std::string> ParseSolution(const nlohmann::json& solution, const ParsedPuzzle& p);

// One clue as JSON, keys sorted.
nlohmann::json ClueJson(const Clue& c);

// "4|0|1235:1:2;5678:0:1": length, leading zero, then the clues sorted, so
// the same clues in any order give the same bytes. Never change the layout:
// puzzle ids hash it.
std::string CanonicalBytes(const ParsedPuzzle& p);

// The statement in plain English, one numbered line per clue.
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::bulls_cows
