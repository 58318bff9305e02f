// The balance puzzle JSON, read strictly, and its other renderings.
//
// Deduction: {"mode":"deduction","coins":12,"weighings":[{"left":[1,2,3,4],
//             "right":[5,6,7,8],"result":"left_heavy|right_heavy|balanced"}]}
//            solution {"coin":7,"heavier":false}
// Strategy:  {"mode":"strategy","coins":12,"weighings":3,"variant":"unknown"}
//            solution {"tree":{"left":[..],"right":[..],"left_heavy":{..},
//            "balanced":{..},"right_heavy":{..}}}, leaves {"coin":k,
//            "heavier":true|false}. A branch no coin can reach is left out.
// Coins are numbered from 1; coin 0 is the known-genuine coin of the
// reference variant, allowed on a pan only there.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/balance/coins.h"

namespace foundry::puzzles::balance {

struct DeductionPuzzle {
  int coins = 12;
  std::vector<Weighing> weighings;
  std::vector<Outcome> outcomes;  // one per weighing
};

struct StrategyPuzzle {
  int coins = 12;
  int weighings = 3;
  Variant variant = Variant::kUnknown;
};

// Which mode a puzzle is in. Errors (InvalidArgument): not an object, or
// "mode" missing or neither "deduction" nor "strategy".
Result<bool> IsStrategy(const nlohmann::json& puzzle);

// Errors (InvalidArgument, naming the field): an unknown key, coins not an
// integer in 3..kMaxCoins, weighings not an array of at most kMaxWeighings
// objects with exactly left, right and result; a pan not an array of coin
// numbers in 1..coins, empty, with a repeat, or of another size than the
// other pan; a coin on both pans; an unknown result.
Result<DeductionPuzzle> ParseDeduction(const nlohmann::json& puzzle);
// Errors (InvalidArgument): an unknown key, coins not in 1..kMaxCoins,
// weighings not in 1..kMaxStrategyWeighings, an unknown variant.
Result<StrategyPuzzle> ParseStrategy(const nlohmann::json& puzzle);

// Errors (InvalidArgument): not exactly {"coin": 1..coins, "heavier": bool}.
Result<Hypothesis> ParseDeductionSolution(const nlohmann::json& solution, int coins);

// Pans of a weighing read from a JSON node ("left", "right"): the same
// checks as in ParseDeduction, coin 0 allowed when `allow_zero`.
// `where` prefixes messages ("weighing 2", "tree node left_heavy").
Result<Weighing> ParsePans(const nlohmann::json& node, int coins, bool allow_zero,
                           const std::string& where);

nlohmann::json WeighingJson(const Weighing& w, Outcome o);

// Canonical bytes. Deduction: "d|12|" and the weighings sorted, each with
// its pans ordered (the pan with the smaller coin list left, the result
// mirrored), "1,2,3,4/5,6,7,8=L". Strategy: "s|12|3|unknown". Never change
// the layout: puzzle ids hash it.
std::string CanonicalBytes(const DeductionPuzzle& p);
std::string CanonicalBytes(const StrategyPuzzle& p);
// The canonical form of one weighing (also the tie-break key of the
// difficulty's solving order).
std::string WeighingKey(const Weighing& w, Outcome o);

std::string RenderText(const DeductionPuzzle& p);
std::string RenderText(const StrategyPuzzle& p);

// A pan's coins as JSON holds them, space-separated ("1 2 3"): the answer's
// text and the strategy drawing show pans this way.
std::string PanText(const nlohmann::json& pan);

}  // namespace foundry::puzzles::balance
