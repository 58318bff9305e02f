// The secret-number Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/secret_number/secret_number.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/secret_number/answer.h"
#include "puzzles/secret_number/codec.h"
#include "puzzles/secret_number/generator.h"
#include "puzzles/secret_number/rules.h"
#include "puzzles/secret_number/svg.h"
#include "puzzles/secret_number/verifier.h"

namespace foundry::puzzles::secret_number {
namespace {

// clang-format off
constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = Verify, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>, .answer_prompt = AnswerPrompt};
// clang-format on

class SecretNumberFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  SecretNumberFamily()
      : PartsFamily(
            {.name = "secret-number",
             .id_prefix = "sn",
             .summary = "Find a hidden number from rules about its digits (My Secret Number).",
             .params =
                 {
                     ParamSpec::Int("digits", 3, kMinDigits, kMaxDigits,
                                    "length of the hidden number (no leading zero)"),
                     ParamSpec::Int("max_rules", 10, 1, kRulesLimit,
                                    "reject a candidate that needs more rules than this"),
                     ParamSpec::Int("min_rules", 2, 1, kRulesLimit,
                                    "reject a candidate that ends with fewer rules than this"),
                     ParamSpec::Bool(
                         "allow_redundant", true,
                         "keep drawn rules that remove no candidate (as the seed does)"),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    return CheckNotAbove(params, "min_rules", "max_rules");
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kDigits = "digits", kMin = "min_rules", kMax = "max_rules",
                             kRedundant = "allow_redundant";
    GenerateOptions o;
    o.digits = static_cast<int>(params.Int(kDigits));
    o.min_rules = static_cast<int>(params.Int(kMin));
    o.max_rules = static_cast<int>(params.Int(kMax));
    o.allow_redundant = params.Bool(kRedundant);
    // A level asked for is aimed at (generator.h); with none, the draws are
    // the seed's process, unchanged.
    o.aim_level = params.goal().level;
    return secret_number::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const SecretNumberFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::secret_number
