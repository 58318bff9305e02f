// The bulls-cows Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/bulls_cows/bulls_cows.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/bulls_cows/answer.h"
#include "puzzles/bulls_cows/codec.h"
#include "puzzles/bulls_cows/codes.h"
#include "puzzles/bulls_cows/generator.h"
#include "puzzles/bulls_cows/guesser.h"
#include "puzzles/bulls_cows/svg.h"
#include "puzzles/bulls_cows/verifier.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// clang-format off
constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = Verify, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>, .answer_prompt = AnswerPrompt};
// clang-format on

class BullsCowsFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  BullsCowsFamily()
      : PartsFamily(
            {.name = "bulls-cows",
             .id_prefix = "bc",
             .summary =
                 "Find a secret code of distinct digits from guesses scored in bulls and cows.",
             .params =
                 {
                     ParamSpec::Int("length", 4, kMinLength, kMaxLength,
                                    "digits in the secret, all different"),
                     ParamSpec::Bool(
                         "leading_zero", false,
                         "the secret may start with 0 (5040 secrets of 4 digits, else 4536)"),
                     ParamSpec::Bool("minimal", true,
                                     "drop every clue the others make unnecessary"),
                     ParamSpec::Int("min_clues", 3, 1, kCluesLimit,
                                    "reject a puzzle with fewer clues"),
                     ParamSpec::Int("max_clues", 8, 1, kCluesLimit,
                                    "reject a puzzle with more clues"),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    return CheckNotAbove(params, "min_clues", "max_clues");
  }

  Result<std::unique_ptr<Guesser>> NewGuesser(const Params& params,
                                              std::string_view strategy) const override {
    return bulls_cows::NewGuesser(static_cast<int>(params.Int("length")),
                                  params.Bool("leading_zero"), strategy);
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
};

}  // namespace

const Family& TheFamily() {
  static const BullsCowsFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::bulls_cows
