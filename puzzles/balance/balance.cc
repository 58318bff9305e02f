// The balance Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/balance/balance.h"

#include <variant>

#include <fmt/format.h>

#include "puzzles/balance/answer.h"
#include "puzzles/balance/codec.h"
#include "puzzles/balance/coins.h"
#include "puzzles/balance/generator.h"
#include "puzzles/balance/svg.h"
#include "puzzles/balance/verifier.h"
#include "puzzles/family_parts.h"

namespace foundry::puzzles::balance {
namespace {

StrategyOptions ToStrategy(const Params& params) {
  StrategyOptions o;
  o.max_coins = static_cast<int>(params.Int("coins"));
  o.weighings = static_cast<int>(params.Int("weighings"));
  o.variant = *ParseVariant(params.Choice("variant"));
  return o;
}

// A balance puzzle is one of two kinds, told apart by its JSON.
using AnyPuzzle = std::variant<DeductionPuzzle, StrategyPuzzle>;

Result<AnyPuzzle> ParseAny(const nlohmann::json& puzzle) {
  auto strategy = IsStrategy(puzzle);
  if (!strategy.ok()) return strategy.status();
  if (*strategy) {
    auto p = ParseStrategy(puzzle);
    if (!p.ok()) return p.status();
    return AnyPuzzle(std::move(*p));
  }
  auto p = ParseDeduction(puzzle);
  if (!p.ok()) return p.status();
  return AnyPuzzle(std::move(*p));
}

constexpr FamilyParts<AnyPuzzle> kParts = {
    .parse = ParseAny,
    .canonical_bytes =
        [](const AnyPuzzle& p) {
          return std::visit([](const auto& q) { return CanonicalBytes(q); }, p);
        },
    .render_text =
        [](const AnyPuzzle& p) {
          return std::visit([](const auto& q) { return RenderText(q); }, p);
        },
    .verify = Verify,
    .render_svg = RenderSvg,
    .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>,
    .answer_prompt = AnswerPrompt};

class BalanceFamily final : public PartsFamily<AnyPuzzle> {
 public:
  BalanceFamily()
      : PartsFamily(
            {.name = "balance",
             .id_prefix = "bl",
             .summary =
                 "Find the counterfeit coin with a two-pan scale (the 12-ball Balance game).",
             .params =
                 {
                     ParamSpec::Choice(
                         "mode", {"deduction", "strategy"},
                         "deduction: a record of weighings to read; strategy: plan the weighings"),
                     ParamSpec::Int(
                         "coins", 12, 1, kMaxCoins,
                         "deduction: the number of coins (at least 3); strategy: the most coins "
                         "(each puzzle draws 1..coins)"),
                     ParamSpec::Int(
                         "weighings", 3, 1, kMaxStrategyWeighings,
                         "strategy: the weighings allowed, which must be tight (just enough)"),
                     ParamSpec::Int(
                         "max_weighings", 6, 1, kMaxWeighings,
                         "deduction: reject a record that needs more weighings than this"),
                     ParamSpec::Choice(
                         "variant", {"unknown", "heavier", "reference"},
                         "strategy only: heavier or lighter unknown; known heavier; unknown with "
                         "a known-genuine coin 0"),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    const bool strategy = params.Choice("mode") == "strategy";
    if (!strategy && params.Int("coins") < 3) {
      return Status::InvalidArgument(fmt::format(
          "parameter 'coins' must be at least 3 for mode=deduction, got {}", params.Int("coins")));
    }
    if (!strategy && params.Choice("variant") != "unknown") {
      return Status::InvalidArgument(
          "parameter 'variant' applies to mode=strategy only (deduction is always unknown)");
    }
    return Status::Ok();
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    if (params.Choice("mode") == "strategy") return GenerateStrategy(rng, ToStrategy(params));
    DeductionOptions o;
    o.coins = static_cast<int>(params.Int("coins"));
    o.max_weighings = static_cast<int>(params.Int("max_weighings"));
    return GenerateDeduction(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const BalanceFamily kFamily;
  return kFamily;
}

int64_t DistinctPuzzles(const Params& params) {
  if (params.Choice("mode") != "strategy") return -1;
  return StrategyPuzzleCount(ToStrategy(params));
}

}  // namespace foundry::puzzles::balance
