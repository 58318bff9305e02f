#include "puzzles/balance/codec.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::puzzles::balance {
namespace {

bool IntIn(const nlohmann::json& v, int64_t lo, int64_t hi, int* out) {
  if (!v.is_number_integer()) return false;
  const auto x = v.get<int64_t>();
  if (x < lo || x > hi) return false;
  *out = static_cast<int>(x);
  return true;
}

Status CheckKeys(const nlohmann::json& object, std::initializer_list<std::string_view> known,
                 const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Status::InvalidArgument(fmt::format("{} has unknown key '{}' (known: {})", where,
                                                 QuoteInput(key), fmt::join(known, ", ")));
    }
  }
  return Status::Ok();
}

std::string Pan(const std::vector<int>& coins) { return fmt::format("{}", fmt::join(coins, ",")); }

}  // namespace

Result<bool> IsStrategy(const nlohmann::json& puzzle) {
  if (!puzzle.is_object()) return Status::InvalidArgument("puzzle must be an object with a mode");
  const auto mode = puzzle.find("mode");
  if (mode == puzzle.end() || !mode->is_string() || (*mode != "deduction" && *mode != "strategy")) {
    return Status::InvalidArgument("puzzle 'mode' must be \"deduction\" or \"strategy\"");
  }
  return *mode == "strategy";
}

Result<Weighing> ParsePans(const nlohmann::json& node, int coins, bool allow_zero,
                           const std::string& where) {
  Weighing w;
  bool used[kMaxCoins + 1] = {};
  for (const char* side : {"left", "right"}) {
    const auto pan = node.find(side);
    if (pan == node.end() || !pan->is_array() || pan->empty()) {
      return Status::InvalidArgument(
          fmt::format("{}: '{}' must be a non-empty array of coin numbers", where, side));
    }
    std::vector<int>& out = side[0] == 'l' ? w.left : w.right;
    for (const auto& c : *pan) {
      int coin = 0;
      if (!IntIn(c, allow_zero ? 0 : 1, coins, &coin)) {
        return Status::InvalidArgument(fmt::format("{}: '{}' holds {}, not a coin number in {}..{}",
                                                   where, side, c.dump(), allow_zero ? 0 : 1,
                                                   coins));
      }
      if (used[coin]) {
        return Status::InvalidArgument(
            fmt::format("{}: coin {} is on the scale twice", where, coin));
      }
      used[coin] = true;
      out.push_back(coin);
    }
    std::sort(out.begin(), out.end());
  }
  if (w.left.size() != w.right.size()) {
    return Status::InvalidArgument(fmt::format("{}: the pans hold {} and {} coins, not equal",
                                               where, w.left.size(), w.right.size()));
  }
  return w;
}

Result<DeductionPuzzle> ParseDeduction(const nlohmann::json& puzzle) {
  FOUNDRY_RETURN_IF_ERROR(CheckKeys(puzzle, {"mode", "coins", "weighings"}, "puzzle"));
  DeductionPuzzle p;
  const auto coins = puzzle.find("coins");
  if (coins == puzzle.end() || !IntIn(*coins, 3, kMaxCoins, &p.coins)) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'coins' must be an integer in 3..{}", kMaxCoins));
  }
  const auto weighings = puzzle.find("weighings");
  if (weighings == puzzle.end() || !weighings->is_array()) {
    return Status::InvalidArgument("puzzle 'weighings' must be an array of weighings");
  }
  if (weighings->size() > static_cast<size_t>(kMaxWeighings)) {
    return Status::InvalidArgument(fmt::format("puzzle has {} weighings, at most {} allowed",
                                               weighings->size(), kMaxWeighings));
  }
  for (size_t k = 0; k < weighings->size(); ++k) {
    const auto& j = (*weighings)[k];
    const std::string where = fmt::format("weighing {}", k + 1);
    if (!j.is_object()) return Status::InvalidArgument(where + " must be an object");
    FOUNDRY_RETURN_IF_ERROR(CheckKeys(j, {"left", "right", "result"}, where));
    auto w = ParsePans(j, p.coins, false, where);
    if (!w.ok()) return w.status();
    const auto result = j.find("result");
    const auto o = result != j.end() && result->is_string()
                       ? ParseOutcome(result->get<std::string>())
                       : std::nullopt;
    if (!o) {
      return Status::InvalidArgument(
          where + ": 'result' must be \"left_heavy\", \"balanced\" or \"right_heavy\"");
    }
    p.weighings.push_back(std::move(*w));
    p.outcomes.push_back(*o);
  }
  return p;
}

Result<StrategyPuzzle> ParseStrategy(const nlohmann::json& puzzle) {
  FOUNDRY_RETURN_IF_ERROR(CheckKeys(puzzle, {"mode", "coins", "weighings", "variant"}, "puzzle"));
  StrategyPuzzle p;
  const auto coins = puzzle.find("coins");
  if (coins == puzzle.end() || !IntIn(*coins, 1, kMaxCoins, &p.coins)) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'coins' must be an integer in 1..{}", kMaxCoins));
  }
  const auto weighings = puzzle.find("weighings");
  if (weighings == puzzle.end() || !IntIn(*weighings, 1, kMaxStrategyWeighings, &p.weighings)) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'weighings' must be an integer in 1..{}", kMaxStrategyWeighings));
  }
  const auto variant = puzzle.find("variant");
  const auto v = variant != puzzle.end() && variant->is_string()
                     ? ParseVariant(variant->get<std::string>())
                     : std::nullopt;
  if (!v) {
    return Status::InvalidArgument(
        "puzzle 'variant' must be \"unknown\", \"heavier\" or \"reference\"");
  }
  p.variant = *v;
  return p;
}

Result<Hypothesis> ParseDeductionSolution(const nlohmann::json& solution, int coins) {
  Hypothesis h;
  if (!solution.is_object() || solution.size() != 2 || !solution.contains("coin") ||
      !solution.contains("heavier") || !IntIn(solution["coin"], 1, coins, &h.coin) ||
      !solution["heavier"].is_boolean()) {
    return Status::InvalidArgument(fmt::format(
        "solution must be an object {{\"coin\": 1..{}, \"heavier\": true|false}}", coins));
  }
  h.heavier = solution["heavier"].get<bool>();
  return h;
}

nlohmann::json WeighingJson(const Weighing& w, Outcome o) {
  nlohmann::json::object_t j;
  j.emplace_hint(j.end(), "left", w.left);
  j.emplace_hint(j.end(), "result", OutcomeName(o));
  j.emplace_hint(j.end(), "right", w.right);
  return j;
}

std::string WeighingKey(const Weighing& w, Outcome o) {
  if (w.right < w.left) {  // mirror: the smaller list on the left
    const Outcome m = o == Outcome::kBalanced    ? o
                      : o == Outcome::kLeftHeavy ? Outcome::kRightHeavy
                                                 : Outcome::kLeftHeavy;
    return WeighingKey(Weighing{w.right, w.left}, m);
  }
  const char r = o == Outcome::kBalanced ? 'B' : o == Outcome::kLeftHeavy ? 'L' : 'R';
  return fmt::format("{}/{}={}", Pan(w.left), Pan(w.right), r);
}

std::string CanonicalBytes(const DeductionPuzzle& p) {
  std::vector<std::string> keys;
  for (size_t k = 0; k < p.weighings.size(); ++k) {
    keys.push_back(WeighingKey(p.weighings[k], p.outcomes[k]));
  }
  std::sort(keys.begin(), keys.end());
  return fmt::format("d|{}|{}", p.coins, fmt::join(keys, ";"));
}

std::string CanonicalBytes(const StrategyPuzzle& p) {
  return fmt::format("s|{}|{}|{}", p.coins, p.weighings, VariantName(p.variant));
}

std::string PanText(const nlohmann::json& pan) {
  std::string out;
  for (const auto& c : pan) {
    if (!out.empty()) out += ' ';
    out += c.dump();
  }
  return out;
}

std::string RenderText(const DeductionPuzzle& p) {
  std::string text = fmt::format(
      "{} coins look alike; one is counterfeit, heavier or lighter than the others.\n"
      "A two-pan scale showed:\n",
      p.coins);
  for (size_t k = 0; k < p.weighings.size(); ++k) {
    const Weighing& w = p.weighings[k];
    const std::string_view shown = p.outcomes[k] == Outcome::kBalanced    ? "balance"
                                   : p.outcomes[k] == Outcome::kLeftHeavy ? "the left pan heavier"
                                                                          : "the right pan heavier";
    text += fmt::format("{}. {} against {}: {}\n", k + 1, fmt::join(w.left, " "),
                        fmt::join(w.right, " "), shown);
  }
  text += "Which coin is counterfeit, and is it heavier or lighter?";
  return text;
}

std::string RenderText(const StrategyPuzzle& p) {
  std::string text = fmt::format("{} coins look alike; one is counterfeit, ", p.coins);
  switch (p.variant) {
    case Variant::kUnknown:
      text += "heavier or lighter than the others.\n";
      break;
    case Variant::kHeavier:
      text += "heavier than the others.\n";
      break;
    case Variant::kReference:
      text += "heavier or lighter than the others.\nYou also have coin 0, known to be genuine.\n";
      break;
  }
  text += fmt::format(
      "Plan {} weighing{} on a two-pan scale, each chosen from the results so far, that always "
      "find the counterfeit{}.",
      p.weighings, p.weighings == 1 ? "" : "s",
      p.variant == Variant::kHeavier ? "" : " and whether it is heavier or lighter");
  return text;
}

}  // namespace foundry::puzzles::balance
