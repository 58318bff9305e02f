#include "puzzles/balance/answer.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/answer_text.h"
#include "puzzles/balance/codec.h"
#include "puzzles/balance/count_solver.h"

namespace foundry::puzzles::balance {
namespace {

constexpr std::string_view kDeductionForm = "type the coin and heavy or light, e.g. coin 5 heavy";

std::string StrategyForm(const StrategyPuzzle& p) {
  return fmt::format(
      "type the first weighing as the coins of the left pan, vs, the coins of the right pan, "
      "e.g. {}",
      p.coins >= 4   ? "1 2 vs 3 4"
      : p.coins >= 2 ? "1 vs 2"
                     : "1 vs 0");
}

std::optional<bool> HeavinessWord(std::string_view word) {
  if (word == "heavy" || word == "heavier" || word == "h") return true;
  if (word == "light" || word == "lighter" || word == "l") return false;
  return std::nullopt;
}

Result<Hypothesis> ParseDeductionAnswer(const DeductionPuzzle& p, std::string_view text) {
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, kDeductionForm));
  };
  if (Trim(text).empty()) return bad("the answer is empty");
  TextScanner in(text);
  std::optional<int64_t> coin;
  std::optional<bool> heavier;
  for (in.Skip(",.:;"); !in.AtEnd(); in.Skip(",.:;")) {
    if (auto n = in.ReadNumber()) {
      if (coin) return bad(fmt::format("{} names two coins", QuoteAnswer(text)));
      coin = n;
      continue;
    }
    const std::string word = in.ReadWord();
    if (word.empty()) {
      return bad(
          fmt::format("{} holds '{}', not part of an answer", QuoteAnswer(text), in.PeekChar()));
    }
    if (word == "coin" || word == "is") continue;
    const auto h = HeavinessWord(word);
    if (!h) return bad(fmt::format("unknown word '{}'", QuoteInput(word)));
    if (heavier) return bad(fmt::format("{} says heavy or light twice", QuoteAnswer(text)));
    heavier = h;
  }
  if (!coin) return bad(fmt::format("{} names no coin", QuoteAnswer(text)));
  if (!heavier) return bad(fmt::format("{} does not say heavy or light", QuoteAnswer(text)));
  if (*coin < 1 || *coin > p.coins) {
    return bad(fmt::format("there is no coin {}; the coins are 1..{}", *coin, p.coins));
  }
  return Hypothesis{static_cast<int>(*coin), *heavier};
}

// The coins of one pan, "1 2, 3".
Result<std::vector<int>> ParsePan(std::string_view text, const StrategyPuzzle& p,
                                  std::string_view side, const std::string& form) {
  const int lowest = p.variant == Variant::kReference ? 0 : 1;
  std::vector<int> pan;
  TextScanner in(text);
  for (in.Skip(","); !in.AtEnd(); in.Skip(",")) {
    const auto n = in.ReadNumber();
    if (!n) {
      return Status::InvalidArgument(
          fmt::format("the {} pan holds '{}', not a coin number: {}", side, in.PeekChar(), form));
    }
    if (*n < lowest || *n > p.coins) {
      return Status::InvalidArgument(fmt::format("there is no coin {}; the coins are {}..{}{}: {}",
                                                 *n, lowest, p.coins,
                                                 lowest == 0 ? " (0 the genuine one)" : "", form));
    }
    pan.push_back(static_cast<int>(*n));
  }
  if (pan.empty()) {
    return Status::InvalidArgument(fmt::format("the {} pan is empty: {}", side, form));
  }
  return pan;
}

Result<Weighing> ParseFirstWeighing(const StrategyPuzzle& p, std::string_view text) {
  const std::string form = StrategyForm(p);
  if (Trim(text).empty()) return Status::InvalidArgument("the answer is empty: " + form);
  // The one separator between the pans: its place and length.
  const std::string lower = AsciiLower(text);
  size_t at = std::string::npos, len = 0, separators = 0;
  for (std::string_view sep : {"vs", "against", "|"}) {
    for (size_t f = lower.find(sep); f != std::string::npos; f = lower.find(sep, f + sep.size())) {
      ++separators;
      at = f;
      len = sep.size();
    }
  }
  if (separators == 0) {
    return Status::InvalidArgument(
        fmt::format("{} does not separate the pans with vs: {}", QuoteAnswer(text), form));
  }
  if (separators > 1) {
    return Status::InvalidArgument(
        fmt::format("{} has more than two pans: {}", QuoteAnswer(text), form));
  }
  const std::string_view right_text = std::string_view(lower).substr(at + len);
  Weighing w;
  auto left = ParsePan(std::string_view(lower).substr(0, at), p, "left", form);
  if (!left.ok()) return left.status();
  auto right = ParsePan(right_text, p, "right", form);
  if (!right.ok()) return right.status();
  w.left = std::move(*left);
  w.right = std::move(*right);
  std::vector<int> all = w.left;
  all.insert(all.end(), w.right.begin(), w.right.end());
  std::sort(all.begin(), all.end());
  if (auto twice = std::adjacent_find(all.begin(), all.end()); twice != all.end()) {
    return Status::InvalidArgument(fmt::format("coin {} is on the scale twice: {}", *twice, form));
  }
  if (w.left.size() != w.right.size()) {
    return Status::InvalidArgument(
        fmt::format("the pans hold {} and {} coins; a weighing needs the same number on each: {}",
                    w.left.size(), w.right.size(), form));
  }
  std::sort(w.left.begin(), w.left.end());
  std::sort(w.right.begin(), w.right.end());
  return w;
}

// True when `w` can be the first weighing of a strategy for `p`: each
// result leaves a state the solver settles in the weighings left.
bool StartsAStrategy(const StrategyPuzzle& p, Weighing w) {
  // The solver keeps genuine coins on the left pan; mirroring the pans only
  // swaps the two unbalanced results, so it changes nothing here.
  if (std::find(w.right.begin(), w.right.end(), 0) != w.right.end()) std::swap(w.left, w.right);
  const auto suspects = [](const std::vector<int>& pan) {
    return static_cast<int>(std::count_if(pan.begin(), pan.end(), [](int c) { return c != 0; }));
  };
  CountWeighing cw;
  if (p.variant == Variant::kHeavier) {
    cw.heavy_left = suspects(w.left);
    cw.heavy_right = suspects(w.right);
  } else {
    cw.unknown_left = suspects(w.left);
    cw.unknown_right = suspects(w.right);
  }
  cw.genuine_left = static_cast<int>(w.left.size()) - suspects(w.left);
  const CountState start = StartState(p.variant, p.coins);
  CountSolver solver;
  for (Outcome o : {Outcome::kLeftHeavy, Outcome::kBalanced, Outcome::kRightHeavy}) {
    if (!solver.Solvable(After(start, cw, o), p.weighings - 1)) return false;
  }
  return true;
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto strategy = IsStrategy(puzzle);
  if (!strategy.ok()) return "";
  if (!*strategy) {
    auto p = ParseDeduction(puzzle);
    if (!p.ok()) return "";
    auto h = ParseDeductionSolution(solution, p->coins);
    if (!h.ok()) return "";
    return fmt::format("coin {} {}", h->coin, h->heavier ? "heavy" : "light");
  }
  if (!solution.is_object() || !solution.contains("tree")) return "";
  const auto& root = solution["tree"];
  if (!root.is_object() || !root.contains("left") || !root.contains("right") ||
      !root["left"].is_array() || !root["right"].is_array()) {
    return "";
  }
  return PanText(root["left"]) + " vs " + PanText(root["right"]);
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto strategy = IsStrategy(puzzle);
  if (!strategy.ok()) return strategy.status();
  if (*strategy) {
    auto p = ParseStrategy(puzzle);
    if (!p.ok()) return p.status();
    auto w = ParseFirstWeighing(*p, text);
    if (!w.ok()) return w.status();
    return StartsAStrategy(*p, *w);
  }
  auto p = ParseDeduction(puzzle);
  if (!p.ok()) return p.status();
  auto h = ParseDeductionAnswer(*p, text);
  if (!h.ok()) return h.status();
  for (size_t k = 0; k < p->weighings.size(); ++k) {
    if (Weigh(p->weighings[k], *h) != p->outcomes[k]) return false;
  }
  return true;
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto strategy = IsStrategy(puzzle);
  if (strategy.ok() && *strategy) {
    auto p = ParseStrategy(puzzle);
    if (p.ok()) {
      std::string form = StrategyForm(*p);
      form[0] = 'T';
      return form + ".";
    }
  }
  return "Type the counterfeit coin and whether it is heavy or light, e.g. coin 5 heavy.";
}

}  // namespace foundry::puzzles::balance
