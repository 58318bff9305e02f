// The alignment Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/alignment/alignment.h"
#include "puzzles/family_parts.h"

#include <fmt/format.h>

#include "puzzles/alignment/answer.h"
#include "puzzles/alignment/codec.h"
#include "puzzles/alignment/generator.h"
#include "puzzles/alignment/svg.h"
#include "puzzles/alignment/verifier.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr FamilyParts<ParsedPuzzle> kParts = {
    .parse = ParsePuzzle,
    .canonical_bytes = [](const ParsedPuzzle& p) { return CanonicalBytes(p.board); },
    .render_text = RenderText,
    .verify = Verify,
    .render_svg = RenderSvg,
    .format_answer = FormatAnswer,
    .check_answer = FromPuzzleAlone<CheckAnswer>,
    .answer_prompt = AnswerPrompt,
    .score_answer = ScoreFromPuzzleAlone<ScoreAnswer>};

class AlignmentFamily final : public PartsFamily<ParsedPuzzle> {
 public:
  AlignmentFamily()
      : PartsFamily(
            {.name = "alignment",
             .id_prefix = "al",
             .summary = "Insert gaps to align columns of coloured bricks with row guides "
                        "(Borderlands Science).",
             .params =
                 {
                     ParamSpec::Int("columns", 6, kMinColumns, kMaxColumns, "number of columns W"),
                     ParamSpec::Int("height", 8, kMinHeight, kMaxHeight, "number of rows H"),
                     ParamSpec::Int("min_len", 4, 1, kMaxHeight, "fewest bricks in a column"),
                     ParamSpec::Int("max_len", 6, 1, kMaxHeight,
                                    "most bricks in a column (at most height)"),
                     ParamSpec::Int("colors", 4, 2, 4, "brick colours, the first letters of ACGT"),
                     ParamSpec::Int("row_bonus", 2, 1, kMaxRowBonus,
                                    "multiplier of a row where every column matches its guide"),
                     ParamSpec::Int(
                         "max_gaps", 0, 0, kMaxColumns * kMaxHeight,
                         "gaps the player (and the greedy) may place; 0 = only the height limits"),
                     ParamSpec::Int("min_improvement", 4, 0,
                                    kMaxRowBonus * kMaxColumns * kMaxHeight,
                                    "reject when the greedy improves the base score by less"),
                     ParamSpec::Int("min_gap_columns", 2, 1, kMaxColumns,
                                    "reject when the greedy's gaps lie in fewer columns"),
                     ParamSpec::Int("min_gap_rows", 2, 1, kMaxHeight,
                                    "reject when the greedy's gaps lie in fewer rows"),
                 }},
            kParts) {}

  Status CheckParams(const Params& params) const override {
    if (Status s = CheckNotAbove(params, "min_len", "max_len"); !s.ok()) return s;
    return CheckNotAbove(params, "max_len", "height");
  }

  Candidate GenerateCandidate(Rng& rng, const Params& params) const override {
    static const std::string kColumns = "columns", kHeight = "height", kMinLen = "min_len",
                             kMaxLen = "max_len", kColors = "colors", kBonus = "row_bonus",
                             kMaxGaps = "max_gaps", kImprove = "min_improvement",
                             kGapCols = "min_gap_columns", kGapRows = "min_gap_rows";
    GenerateOptions o;
    o.columns = static_cast<int>(params.Int(kColumns));
    o.height = static_cast<int>(params.Int(kHeight));
    o.min_len = static_cast<int>(params.Int(kMinLen));
    o.max_len = static_cast<int>(params.Int(kMaxLen));
    o.colors = static_cast<int>(params.Int(kColors));
    o.row_bonus = static_cast<int>(params.Int(kBonus));
    o.max_gaps = static_cast<int>(params.Int(kMaxGaps));
    o.min_improvement = static_cast<int>(params.Int(kImprove));
    o.min_gap_columns = static_cast<int>(params.Int(kGapCols));
    o.min_gap_rows = static_cast<int>(params.Int(kGapRows));
    return alignment::Generate(rng, o);
  }
};

}  // namespace

const Family& TheFamily() {
  static const AlignmentFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::alignment
