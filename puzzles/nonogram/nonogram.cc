// The nonogram Family: identity, parameters and the generator; the rest comes
// from codec.h, verifier.h, svg.h and answer.h through FamilyParts.
#include "puzzles/nonogram/nonogram.h"

#include <fmt/format.h>

#include "puzzles/family_parts.h"
#include "puzzles/nonogram/answer.h"
#include "puzzles/nonogram/codec.h"
#include "puzzles/nonogram/generator.h"
#include "puzzles/nonogram/svg.h"
#include "puzzles/nonogram/verifier.h"

namespace foundry::puzzles::nonogram {
namespace {

constexpr int kMinDensity = 20, kMaxDensity = 80;

// The image density used when the `density` parameter is 0 (automatic),
// by the level asked for (any, easy, medium, hard, expert): denser images
// give longer runs, which line solving settles; sparser ones need
// probing or more.
constexpr int kAutoDensity[] = {55, 65, 48, 48, 42};

// clang-format off
constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = Verify, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>, .answer_prompt = AnswerPrompt};
// clang-format on

class NonogramFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  NonogramFamily()
      : PartsFamily(
            {.name = "nonogram",
             .id_prefix = "ng",
             .summary = "Nonograms (paint by numbers), 5x5 to 40x40: unique, graded by the "
                        "deductions needed.",
             .params =
                 {
                     ParamSpec::Int("width", 10, kMinSide, kMaxSide, "columns of the grid"),
                     ParamSpec::Int("height", 10, kMinSide, kMaxSide, "rows of the grid"),
                     ParamSpec::Int(
                         "density", 0, 0, kMaxDensity,
                         fmt::format(
                             "percent of the random image filled, {}..{}; 0: chosen by the level "
                             "asked for (see docs/families/nonogram.md)",
                             kMinDensity, kMaxDensity)),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    const int64_t d = params.Int("density");
    if (d != 0 && d < kMinDensity) {
      return Status::InvalidArgument(
          fmt::format("parameter 'density' must be 0 (automatic) or {}..{}, not {}", kMinDensity,
                      kMaxDensity, d));
    }
    return Status::Ok();
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kWidth = "width", kHeight = "height", kDensity = "density";
    GenerateOptions o;
    o.width = static_cast<int>(params.Int(kWidth));
    o.height = static_cast<int>(params.Int(kHeight));
    o.level = params.goal().level;  // aim at the level asked for (generator.h)
    const int64_t d = params.Int(kDensity);
    o.density = d != 0 ? static_cast<int>(d) : kAutoDensity[o.level + 1];
    return nonogram::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const NonogramFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::nonogram
