// The alignment Family: parameters, and the glue from the contract to
// generator.h, verifier.h, codec.h,
// svg.h (the drawing) and answer.h (typed answers).
#include "puzzles/alignment/alignment.h"

#include <fmt/format.h>

#include "puzzles/alignment/answer.h"
#include "puzzles/alignment/codec.h"
#include "puzzles/alignment/generator.h"
#include "puzzles/alignment/svg.h"
#include "puzzles/alignment/verifier.h"

namespace foundry::puzzles::alignment {
namespace {

class AlignmentFamily final : public Family {
 public:
  std::string_view name() const override { return "alignment"; }
  std::string_view id_prefix() const override { return "al"; }
  std::string_view summary() const override {
    return "Insert gaps to align columns of coloured bricks with row guides (Borderlands Science).";
  }

  const std::vector<ParamSpec>& param_specs() const override {
    static const std::vector<ParamSpec> kSpecs = {
        ParamSpec::Int("columns", 6, kMinColumns, kMaxColumns, "number of columns W"),
        ParamSpec::Int("height", 8, kMinHeight, kMaxHeight, "number of rows H"),
        ParamSpec::Int("min_len", 4, 1, kMaxHeight, "fewest bricks in a column"),
        ParamSpec::Int("max_len", 6, 1, kMaxHeight, "most bricks in a column (at most height)"),
        ParamSpec::Int("colors", 4, 2, 4, "brick colours, the first letters of ACGT"),
        ParamSpec::Int("row_bonus", 2, 1, kMaxRowBonus,
                       "multiplier of a row where every column matches its guide"),
        ParamSpec::Int("max_gaps", 0, 0, kMaxColumns * kMaxHeight,
                       "gaps the player (and the greedy) may place; 0 = only the height limits"),
        ParamSpec::Int("min_improvement", 4, 0, kMaxRowBonus * kMaxColumns * kMaxHeight,
                       "reject when the greedy improves the base score by less"),
        ParamSpec::Int("min_gap_columns", 2, 1, kMaxColumns,
                       "reject when the greedy's gaps lie in fewer columns"),
        ParamSpec::Int("min_gap_rows", 2, 1, kMaxHeight,
                       "reject when the greedy's gaps lie in fewer rows"),
    };
    return kSpecs;
  }

  Status CheckParams(const Params& params) const override {
    const int64_t min_len = params.Int("min_len"), max_len = params.Int("max_len"),
                  height = params.Int("height");
    if (min_len > max_len) {
      return Status::InvalidArgument(fmt::format(
          "parameter 'min_len' ({}) must not exceed 'max_len' ({})", min_len, max_len));
    }
    if (max_len > height) {
      return Status::InvalidArgument(fmt::format(
          "parameter 'max_len' ({}) must not exceed 'height' ({})", max_len, height));
    }
    return Status::Ok();
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

  Result<Difficulty> Verify(const nlohmann::json& puzzle,
                            const nlohmann::json& solution) const override {
    return alignment::Verify(puzzle, solution);
  }

  std::string CanonicalBytes(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    if (!p.ok()) return "!invalid|" + puzzle.dump();
    return alignment::CanonicalBytes(p->board);
  }

  std::string RenderText(const nlohmann::json& puzzle) const override {
    auto p = ParsePuzzle(puzzle);
    if (!p.ok()) return "invalid puzzle: " + p.status().message();
    return alignment::RenderText(*p);
  }

  std::string RenderSvg(const nlohmann::json& puzzle,
                        const nlohmann::json* solution) const override {
    return alignment::RenderSvg(puzzle, solution);
  }

  std::string FormatAnswer(const nlohmann::json& puzzle,
                           const nlohmann::json& solution) const override {
    return alignment::FormatAnswer(puzzle, solution);
  }

  Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json&,
                           std::string_view text) const override {
    return alignment::CheckAnswer(puzzle, text);
  }

  std::string AnswerPrompt(const nlohmann::json& puzzle) const override {
    return alignment::AnswerPrompt(puzzle);
  }
};

}  // namespace

const Family& TheFamily() {
  static const AlignmentFamily kFamily;
  return kFamily;
}

}  // namespace foundry::puzzles::alignment
