// The secret-number Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/secret_number/secret_number.h"

#include <fmt/format.h>

#include "puzzles/secret_number/answer.h"
#include "puzzles/secret_number/codec.h"
#include "puzzles/secret_number/generator.h"
#include "puzzles/secret_number/rules.h"
#include "puzzles/secret_number/svg.h"
#include "puzzles/secret_number/verifier.h"

namespace foundry::puzzles::secret_number {
namespace {

class SecretNumberFamily final : public Family {
 public:
  std::string_view name() const override { return "secret-number"; }
  std::string_view id_prefix() const override { return "sn"; }
  std::string_view summary() const override {
    return "Find a hidden number from rules about its digits (My Secret Number).";
  }

  const std::vector<ParamSpec>& param_specs() const override {
    static const std::vector<ParamSpec> kSpecs = {
        ParamSpec::Int("digits", 3, kMinDigits, kMaxDigits,
                       "length of the hidden number (no leading zero)"),
        ParamSpec::Int("max_rules", 10, 1, kRulesLimit,
                       "reject a candidate that needs more rules than this"),
        ParamSpec::Int("min_rules", 2, 1, kRulesLimit,
                       "reject a candidate that ends with fewer rules than this"),
        ParamSpec::Bool("allow_redundant", true,
                        "keep drawn rules that remove no candidate (as the seed does)"),
    };
    return kSpecs;
  }

  Status CheckParams(const Params& params) const override {
    const int64_t min_rules = params.Int("min_rules");
    const int64_t max_rules = params.Int("max_rules");
    if (min_rules > max_rules) {
      return Status::InvalidArgument(fmt::format(
          "parameter 'min_rules' ({}) must not exceed 'max_rules' ({})", min_rules, max_rules));
    }
    return Status::Ok();
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

  Result<Difficulty> Verify(const nlohmann::json& puzzle,
                            const nlohmann::json& solution) const override {
    return secret_number::Verify(puzzle, solution);
  }

  std::string CanonicalBytes(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    // REQUIRES says the puzzle verified; still, never let two invalid puzzles
    // share bytes with each other or with a valid one.
    if (!p.ok()) return "!invalid|" + puzzle.dump();
    return secret_number::CanonicalBytes(*p);
  }

  std::string RenderText(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    if (!p.ok()) return "invalid puzzle: " + p.status().message();
    return secret_number::RenderText(*p);
  }

  std::string RenderSvg(const nlohmann::json& puzzle,
                        const nlohmann::json* solution) const override {
    return secret_number::RenderSvg(puzzle, solution);
  }

  std::string FormatAnswer(const nlohmann::json& puzzle,
                           const nlohmann::json& solution) const override {
    return secret_number::FormatAnswer(puzzle, solution);
  }

  Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json&,
                           std::string_view text) const override {
    return secret_number::CheckAnswer(puzzle, text);
  }

  std::string AnswerPrompt(const nlohmann::json& puzzle) const override {
    return secret_number::AnswerPrompt(puzzle);
  }
};

}  // namespace

const Family& TheFamily() {
  static const SecretNumberFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::secret_number
