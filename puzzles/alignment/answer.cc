#include "puzzles/alignment/answer.h"

#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "puzzles/alignment/codec.h"
#include "puzzles/answer_text.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr std::string_view kForm =
    "type the gap cells as c<column>r<row> (0-based), e.g. c0r2 c3r4, or none";

using Cell = std::pair<int, int>;  // column, row

Result<std::set<Cell>> ParseGaps(const Board& board, std::string_view text) {
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, kForm));
  };
  const std::string folded = FoldName(text);
  if (folded.empty()) return bad("the answer is empty");
  std::set<Cell> gaps;
  if (folded == "none") return gaps;
  TextScanner in(folded);
  for (in.Skip(",;"); !in.AtEnd(); in.Skip(",;")) {
    const std::string_view at = in.Rest();
    if (!in.Accept('c'))
      return bad(fmt::format("{} is not a gap cell", QuoteAnswer(at.substr(0, at.find(' ')))));
    in.Skip(":");
    const auto column = in.ReadNumber();
    in.Skip(":,");
    const bool has_r = in.Accept('r');
    in.Skip(":");
    const auto row = has_r ? in.ReadNumber() : std::nullopt;
    if (!column || !row)
      return bad(fmt::format("{} is not a gap cell", QuoteAnswer(at.substr(0, at.find(' ')))));
    if (*column >= board.width()) {
      return bad(fmt::format("there is no column {} (columns 0..{})", *column, board.width() - 1));
    }
    if (*row >= board.height) {
      return bad(fmt::format("there is no row {} (rows 0..{})", *row, board.height - 1));
    }
    const Cell cell{static_cast<int>(*column), static_cast<int>(*row)};
    if (!gaps.insert(cell).second)
      return bad(fmt::format("c{}r{} is given twice", cell.first, cell.second));
  }
  return gaps;
}

// The layout the gaps name, or nullopt when they do not fit a column (a gap
// at or after the end of its column's bricks, or more cells than the height).
std::optional<Layout> LayoutOf(const Board& board, const std::set<Cell>& gaps) {
  Layout layout(board.columns.size());
  for (size_t c = 0; c < board.columns.size(); ++c) {
    const auto& bricks = board.columns[c];
    size_t next = 0;
    for (int r = 0; next < bricks.size(); ++r) {
      if (r >= board.height) return std::nullopt;
      if (gaps.count({static_cast<int>(c), r}))
        layout[c].push_back(kGap);
      else
        layout[c].push_back(static_cast<int8_t>(bricks[next++]));
    }
  }
  // A named gap below the last brick was never reached above.
  if (static_cast<int>(gaps.size()) != GapCount(layout)) return std::nullopt;
  return layout;
}

// A typed answer read against its puzzle: `layout` is the board with the
// typed gaps, nullopt when they cannot be placed (an answer that is
// readable but wrong). Errors: the puzzle or the text cannot be read.
struct Played {
  ParsedPuzzle puzzle;
  std::optional<Layout> layout;
};

Result<Played> ReadPlayed(const nlohmann::json& puzzle, std::string_view text) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto gaps = ParseGaps(p->board, text);
  if (!gaps.ok()) return gaps.status();
  Played out{std::move(*p), std::nullopt};
  auto layout = LayoutOf(out.puzzle.board, *gaps);
  if (layout && IsValidLayout(out.puzzle.board, *layout)) out.layout = std::move(layout);
  return out;
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto s = ParseSolution(solution, p->board);
  if (!s.ok()) return "";
  std::vector<std::string> cells;
  for (size_t c = 0; c < s->first.size(); ++c) {
    for (size_t r = 0; r < s->first[c].size(); ++r) {
      if (s->first[c][r] == kGap) cells.push_back(fmt::format("c{}r{}", c, r));
    }
  }
  return cells.empty() ? "none" : fmt::format("{}", fmt::join(cells, " "));
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto played = ReadPlayed(puzzle, text);
  if (!played.ok()) return played.status();
  if (!played->layout) return false;
  return Score(played->puzzle.board, *played->layout) >= played->puzzle.target_score;
}

Result<std::optional<AnswerScore>> ScoreAnswer(const nlohmann::json& puzzle,
                                               std::string_view text) {
  auto played = ReadPlayed(puzzle, text);
  if (!played.ok()) return played.status();
  if (!played->layout) return std::optional<AnswerScore>();
  const ParsedPuzzle& p = played->puzzle;
  return std::optional<AnswerScore>(
      AnswerScore{.score = static_cast<double>(Score(p.board, *played->layout)),
                  .target = static_cast<double>(p.target_score),
                  .greedy = static_cast<double>(p.greedy_score),
                  .best = static_cast<double>(p.best_score)});
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  const std::string target = p.ok() ? fmt::format(" to reach {} points", p->target_score) : "";
  return fmt::format(
      "Type the cells where gaps go{} as c<column>r<row>, counting from 0, e.g. c0r2 c3r4 (or "
      "none).",
      target);
}

}  // namespace foundry::puzzles::alignment
