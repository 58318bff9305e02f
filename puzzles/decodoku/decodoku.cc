// The decodoku Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/decodoku/decodoku.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/decodoku/answer.h"
#include "puzzles/decodoku/codec.h"
#include "puzzles/decodoku/generator.h"
#include "puzzles/decodoku/svg.h"
#include "puzzles/decodoku/verifier.h"

namespace foundry::puzzles::decodoku {
namespace {

// clang-format off
constexpr FamilyParts<Grid> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = Verify, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = CheckAnswer, .answer_prompt = AnswerPrompt};
// clang-format on

class DecodokuFamily final : public PartsFamily<Grid> {
 public:
  DecodokuFamily()
      : PartsFamily(
            {.name = "decodoku",
             .id_prefix = "dk",
             .summary = "Clear a grid of noisy numbers by merging neighbours mod 10 in par moves "
                        "(Decodoku).",
             .params =
                 {
                     ParamSpec::Int("size", 8, kMinSize, kMaxSize, "side L of the L x L grid"),
                     ParamSpec::Int("noise_weight", 6, 1, 30,
                                    "weight of one round of noise (the seed's 6)"),
                     ParamSpec::Int("rounds", 1, 1, 20,
                                    "noise rounds, with the greedy player's 5 moves between two"),
                     ParamSpec::Int("min_moves", 4, 0, kMaxSolutionMoves,
                                    "reject a par below this"),
                     ParamSpec::Int("max_moves", 30, 0, kMaxSolutionMoves,
                                    "reject a par above this"),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    return CheckNotAbove(params, "min_moves", "max_moves");
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kSize = "size", kWeight = "noise_weight", kRounds = "rounds",
                             kMin = "min_moves", kMax = "max_moves";
    GenerateOptions o;
    o.size = static_cast<int>(params.Int(kSize));
    o.noise_weight = static_cast<int>(params.Int(kWeight));
    o.rounds = static_cast<int>(params.Int(kRounds));
    o.min_moves = static_cast<int>(params.Int(kMin));
    o.max_moves = static_cast<int>(params.Int(kMax));
    return decodoku::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const DecodokuFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::decodoku
