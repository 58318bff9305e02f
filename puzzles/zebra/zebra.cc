// The zebra Family: parameters, and the glue from the contract to
// generator.h, verifier.h (uniqueness), solver.h (grade), codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/zebra/zebra.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/zebra/answer.h"
#include "puzzles/zebra/codec.h"
#include "puzzles/zebra/generator.h"
#include "puzzles/zebra/solver.h"
#include "puzzles/zebra/svg.h"
#include "puzzles/zebra/verifier.h"

namespace foundry::puzzles::zebra {
namespace {

// The family's Verify: the solution fits, a search independent of the
// generator finds no second one, and the grade comes from the puzzle alone.
Result<Difficulty> VerifyPuzzle(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto s = ParseSolution(*p, solution);
  if (!s.ok()) return s.status();
  for (size_t i = 0; i < p->clues.size(); ++i) {
    if (!Holds(p->clues[i], *s)) {
      return Status::FailedPrecondition(
          fmt::format("solution breaks clue {}: {}", i + 1, ClueSentence(*p, p->clues[i])));
    }
  }
  // The solution fits, so there is at least one; verifier.h (not the
  // generator's solver) says whether there is a second.
  if (IndependentCount(*p, 2) != 1) {
    return Status::FailedPrecondition("puzzle has more than one solution");
  }
  const SolveReport report =
      Solver(p->houses, static_cast<int>(p->categories.size()), p->clues).Grade();
  if (report.solutions != 1) {
    return Status::Internal("the grading solver disagrees with the verifier on uniqueness");
  }
  return RateDifficulty(report, static_cast<int>(p->clues.size()));
}

// clang-format off
constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = VerifyPuzzle, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>, .answer_prompt = AnswerPrompt};
// clang-format on

class ZebraFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  ZebraFamily()
      : PartsFamily(
            {.name = "zebra",
             .id_prefix = "zb",
             .summary =
                 "Zebra (Einstein) logic puzzles: who lives where, from minimal sets of clues.",
             .params =
                 {
                     ParamSpec::Int("houses", 5, kMinHouses, kMaxHouses,
                                    "houses in the row (items per category)"),
                     ParamSpec::Int(
                         "categories", 5, kMinCategories, kMaxCategories,
                         "categories (nationality, color, pet, drink, smoke, hobby, car, music)"),
                     ParamSpec::Bool("minimal", true,
                                     "drop every clue whose removal keeps the solution unique"),
                 }},
            kParts) {}

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kHouses = "houses", kCats = "categories", kMin = "minimal";
    GenerateOptions o;
    o.houses = static_cast<int>(params.Int(kHouses));
    o.categories = static_cast<int>(params.Int(kCats));
    o.minimal = params.Bool(kMin);
    o.level = params.goal().level;  // aim at the level asked for (generator.h)
    return zebra::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const ZebraFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::zebra
