// The bulls-cows Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/bulls_cows/bulls_cows.h"

#include <fmt/format.h>

#include "puzzles/bulls_cows/answer.h"
#include "puzzles/bulls_cows/codec.h"
#include "puzzles/bulls_cows/codes.h"
#include "puzzles/bulls_cows/generator.h"
#include "puzzles/bulls_cows/svg.h"
#include "puzzles/bulls_cows/verifier.h"

namespace foundry::puzzles::bulls_cows {
namespace {

class BullsCowsFamily final : public Family {
 public:
  std::string_view name() const override { return "bulls-cows"; }
  std::string_view id_prefix() const override { return "bc"; }
  std::string_view summary() const override {
    return "Find a secret code of distinct digits from guesses scored in bulls and cows.";
  }

  const std::vector<ParamSpec>& param_specs() const override {
    static const std::vector<ParamSpec> kSpecs = {
        ParamSpec::Int("length", 4, kMinLength, kMaxLength, "digits in the secret, all different"),
        ParamSpec::Bool("leading_zero", false,
                        "the secret may start with 0 (5040 secrets of 4 digits, else 4536)"),
        ParamSpec::Bool("minimal", true, "drop every clue the others make unnecessary"),
        ParamSpec::Int("min_clues", 3, 1, kCluesLimit, "reject a puzzle with fewer clues"),
        ParamSpec::Int("max_clues", 8, 1, kCluesLimit, "reject a puzzle with more clues"),
    };
    return kSpecs;
  }

  Status CheckParams(const Params& params) const override {
    const int64_t min_clues = params.Int("min_clues");
    const int64_t max_clues = params.Int("max_clues");
    if (min_clues > max_clues) {
      return Status::InvalidArgument(fmt::format(
          "parameter 'min_clues' ({}) must not exceed 'max_clues' ({})", min_clues, max_clues));
    }
    return Status::Ok();
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    GenerateOptions o;
    o.length = static_cast<int>(params.Int("length"));
    o.leading_zero = params.Bool("leading_zero");
    o.minimal = params.Bool("minimal");
    o.min_clues = static_cast<int>(params.Int("min_clues"));
    o.max_clues = static_cast<int>(params.Int("max_clues"));
    return bulls_cows::Generate(rng, o);
  }

  Result<Difficulty> Verify(const nlohmann::json& puzzle,
                            const nlohmann::json& solution) const override {
    return bulls_cows::Verify(puzzle, solution);
  }

  std::string CanonicalBytes(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    // Never let an invalid puzzle share bytes with a valid one.
    if (!p.ok()) return "!invalid|" + puzzle.dump();
    return bulls_cows::CanonicalBytes(*p);
  }

  std::string RenderText(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    if (!p.ok()) return "invalid puzzle: " + p.status().message();
    return bulls_cows::RenderText(*p);
  }

  std::string RenderSvg(const nlohmann::json& puzzle,
                        const nlohmann::json* solution) const override {
    return bulls_cows::RenderSvg(puzzle, solution);
  }

  std::string FormatAnswer(const nlohmann::json& puzzle,
                           const nlohmann::json& solution) const override {
    return bulls_cows::FormatAnswer(puzzle, solution);
  }

  Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json&,
                           std::string_view text) const override {
    return bulls_cows::CheckAnswer(puzzle, text);
  }

  std::string AnswerPrompt(const nlohmann::json& puzzle) const override {
    return bulls_cows::AnswerPrompt(puzzle);
  }
};

}  // namespace

const Family& TheFamily() {
  static const BullsCowsFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::bulls_cows
