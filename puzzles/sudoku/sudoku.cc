// The sudoku Family: parameters, and the glue from the contract to
// generator.h, solver.h and dlx.h (verification), grader.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/sudoku/sudoku.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/sudoku/answer.h"
#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/dlx.h"
#include "puzzles/sudoku/generator.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/solver.h"
#include "puzzles/sudoku/svg.h"

namespace foundry::puzzles::sudoku {
namespace {

// The family's Verify: the solution fits, there is no second one, and the
// grade comes from the puzzle alone.
Result<Difficulty> VerifyPuzzle(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto s = ParseSolution(p->shape, solution);
  if (!s.ok()) return s.status();
  if (!IsCompleteSolution(p->shape, *s)) {
    return Status::FailedPrecondition("solution breaks a row, column or box");
  }
  for (size_t i = 0; i < s->size(); ++i) {
    if (p->grid[i] && p->grid[i] != (*s)[i]) {
      return Status::FailedPrecondition(
          fmt::format("solution cell {} is {} but the puzzle gives {}", i + 1, DigitChar((*s)[i]),
                      DigitChar(p->grid[i])));
    }
  }
  // The solution fits, so there is at least one. Where the grader's logic
  // fills the grid with it, that is the proof there is no second: each of
  // its steps only removes digits no solution can take (grading_logic.h).
  // Otherwise a solver the generator did not use for this shape searches
  // for a second (solver.h, dlx.h); for 9x9 it starts from the digits
  // logic left, which every solution fits.
  const Grade grade = GradePuzzle(p->shape, p->grid);
  if (grade.filled != *s) {
    const bool nine = p->shape == Shape{3, 3};
    const int count = nine && !grade.candidates.empty()
                          ? CountSolutionsWithin(p->shape, grade.candidates, 2)
                      : nine ? CountSolutions(p->shape, p->grid, 2)
                             : DlxCountSolutions(p->shape, p->grid, 2);
    if (count != 1) {
      return Status::FailedPrecondition("puzzle has more than one solution");
    }
  }
  return grade.ToDifficulty();
}

// clang-format off
constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle, .canonical_bytes = CanonicalBytes, .render_text = RenderText,
    .verify = VerifyPuzzle, .render_svg = RenderSvg, .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>, .answer_prompt = AnswerPrompt};
// clang-format on

class SudokuFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  SudokuFamily()
      : PartsFamily(
            {.name = "sudoku",
             .id_prefix = "sd",
             .summary =
                 "Sudoku, 4x4 to 16x16: unique, minimal by default, graded by human techniques.",
             .params =
                 {
                     ParamSpec::Choice("box", {"3x3", "2x2", "2x3", "3x4", "4x4"},
                                       "box rows x columns (the grid is (rows*columns) squared)"),
                     ParamSpec::Bool("symmetric", false,
                                     "remove clues in 180-degree rotational pairs"),
                     ParamSpec::Bool("minimal", true,
                                     "remove clues until none can go without a second solution "
                                     "(or, with a level asked, without "
                                     "leaving it); false: stop at the first that must stay"),
                 }},
            kParts) {}

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kBox = "box", kSym = "symmetric", kMin = "minimal";
    GenerateOptions o;
    o.shape = *ShapeFromName(params.Choice(kBox));
    o.symmetric = params.Bool(kSym);
    o.minimal = params.Bool(kMin);
    o.level = params.goal().level;  // aim at the level asked for (generator.h)
    return sudoku::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const SudokuFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::sudoku
