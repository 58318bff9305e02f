// The balance Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/balance/balance.h"

#include <fmt/format.h>

#include "puzzles/balance/answer.h"
#include "puzzles/balance/codec.h"
#include "puzzles/balance/coins.h"
#include "puzzles/balance/generator.h"
#include "puzzles/balance/svg.h"
#include "puzzles/balance/verifier.h"

namespace foundry::puzzles::balance {
namespace {

StrategyOptions ToStrategy(const Params& params) {
  StrategyOptions o;
  o.max_coins = static_cast<int>(params.Int("coins"));
  o.weighings = static_cast<int>(params.Int("weighings"));
  o.variant = *ParseVariant(params.Choice("variant"));
  return o;
}

class BalanceFamily final : public Family {
 public:
  std::string_view name() const override { return "balance"; }
  std::string_view id_prefix() const override { return "bl"; }
  std::string_view summary() const override {
    return "Find the counterfeit coin with a two-pan scale (the 12-ball Balance game).";
  }

  const std::vector<ParamSpec>& param_specs() const override {
    static const std::vector<ParamSpec> kSpecs = {
        ParamSpec::Choice("mode", {"deduction", "strategy"},
                          "deduction: a record of weighings to read; strategy: plan the weighings"),
        ParamSpec::Int("coins", 12, 1, kMaxCoins,
                       "deduction: the number of coins (at least 3); strategy: the most coins "
                       "(each puzzle draws 1..coins)"),
        ParamSpec::Int("weighings", 3, 1, kMaxStrategyWeighings,
                       "strategy: the weighings allowed, which must be tight (just enough)"),
        ParamSpec::Int("max_weighings", 6, 1, kMaxWeighings,
                       "deduction: reject a record that needs more weighings than this"),
        ParamSpec::Choice("variant", {"unknown", "heavier", "reference"},
                          "strategy only: heavier or lighter unknown; known heavier; unknown with "
                          "a known-genuine coin 0"),
    };
    return kSpecs;
  }

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

  Result<Difficulty> Verify(const nlohmann::json& puzzle,
                            const nlohmann::json& solution) const override {
    return balance::Verify(puzzle, solution);
  }

  std::string CanonicalBytes(const nlohmann::json& puzzle) const override {
    auto strategy = IsStrategy(puzzle);
    if (strategy.ok() && *strategy) {
      if (auto p = ParseStrategy(puzzle); p.ok()) return balance::CanonicalBytes(*p);
    } else if (strategy.ok()) {
      if (auto p = ParseDeduction(puzzle); p.ok()) return balance::CanonicalBytes(*p);
    }
    // Never let an invalid puzzle share bytes with a valid one.
    return "!invalid|" + puzzle.dump();
  }

  std::string RenderText(const nlohmann::json& puzzle) const override {
    auto strategy = IsStrategy(puzzle);
    if (!strategy.ok()) return "invalid puzzle: " + strategy.status().message();
    if (*strategy) {
      auto p = ParseStrategy(puzzle);
      return p.ok() ? balance::RenderText(*p) : "invalid puzzle: " + p.status().message();
    }
    auto p = ParseDeduction(puzzle);
    return p.ok() ? balance::RenderText(*p) : "invalid puzzle: " + p.status().message();
  }

  std::string RenderSvg(const nlohmann::json& puzzle,
                        const nlohmann::json* solution) const override {
    return balance::RenderSvg(puzzle, solution);
  }

  std::string FormatAnswer(const nlohmann::json& puzzle,
                           const nlohmann::json& solution) const override {
    return balance::FormatAnswer(puzzle, solution);
  }

  Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json&,
                           std::string_view text) const override {
    return balance::CheckAnswer(puzzle, text);
  }

  std::string AnswerPrompt(const nlohmann::json& puzzle) const override {
    return balance::AnswerPrompt(puzzle);
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
