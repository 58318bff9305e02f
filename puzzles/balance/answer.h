// The balance answer as a player types it (case and spaces do not matter).
//
// Deduction: the counterfeit and how it differs, "coin 7 heavy". Also read:
//   "7 heavy", "coin 7 is lighter", "7h", "7 L" (heavy|heavier|h,
//   light|lighter|l; the word "coin" and "is" optional).
// Strategy: a whole decision tree is too much to type, so the answer is the
//   FIRST weighing, "1 2 3 4 vs 5 6 7 8" (pans separated by "vs",
//   "against" or "|"; coins by spaces or commas; coin 0, the known-genuine
//   coin, only in the reference variant). It is right when it can start a
//   strategy: after each of its three results the count-state solver
//   (count_solver.h) still settles what is left within the remaining k - 1
//   weighings. So "4 vs 4" and its relabellings are right for 12 coins in
//   3 weighings, "3 vs 3" is wrong.
//
// Both are judged by the rules, not by comparing with the stored solution.
//
// Thread safety: pure functions (each strategy check owns its solver).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::puzzles::balance {

// Deduction: "coin 7 light"; strategy: the tree's first weighing,
// "1 2 3 4 vs 5 6 7 8". "" when `puzzle` or `solution` is malformed.
std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution);

// Deduction: true when the typed (coin, heavier?) fits every weighing.
// Strategy: true when the typed first weighing starts a strategy within the
// puzzle's weighings. Errors (InvalidArgument, with the expected form): a
// malformed puzzle; deduction text without exactly one coin number and one
// of heavy/light, an unknown word, a coin outside 1..coins; strategy text
// without "vs", an empty pan, a coin outside the puzzle's coins (coin 0
// outside the reference variant), a coin twice, pans of different sizes.
Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text);

// One line with the form and an example.
std::string AnswerPrompt(const nlohmann::json& puzzle);

}  // namespace foundry::puzzles::balance
