#include "puzzles/alignment/verifier.h"

#include <fmt/format.h>

#include "puzzles/alignment/analysis.h"
#include "puzzles/alignment/codec.h"

namespace foundry::puzzles::alignment {
namespace {

// The layout's problem for `board`, or "" when it fits.
std::string LayoutProblem(const Board& board, const Layout& layout) {
  int gaps = 0;
  for (size_t c = 0; c < layout.size(); ++c) {
    const auto& cells = layout[c];
    std::vector<uint8_t> bricks;
    for (int8_t cell : cells) {
      if (cell == kGap)
        ++gaps;
      else
        bricks.push_back(static_cast<uint8_t>(cell));
    }
    if (bricks != board.columns[c])
      return fmt::format("column {} holds other bricks than the puzzle's", c);
    if (cells.size() > static_cast<size_t>(board.height)) {
      return fmt::format("column {} is {} cells long, the height is {}", c, cells.size(),
                         board.height);
    }
    if (!cells.empty() && cells.back() == kGap) return fmt::format("column {} ends with a gap", c);
  }
  if (board.max_gaps > 0 && gaps > board.max_gaps) {
    return fmt::format("{} gaps, at most {} allowed", gaps, board.max_gaps);
  }
  return "";
}

// The seed's score, written out cell by cell.
int PlainScore(const Board& board, const Layout& layout) {
  int total = 0;
  for (int r = 0; r < board.height; ++r) {
    int matching = 0;
    for (const auto& cells : layout) {
      const bool brick = static_cast<size_t>(r) < cells.size() && cells[r] != kGap;
      if (brick && (board.guides[r] & (1u << cells[r])) != 0) ++matching;
    }
    total += matching == board.width() ? matching * board.row_bonus : matching;
  }
  return total;
}

Status Claim(const char* what, int claimed, int recomputed) {
  if (claimed == recomputed) return Status::Ok();
  return Status::FailedPrecondition(
      fmt::format("the puzzle's {} is {}, recomputed {}", what, claimed, recomputed));
}

}  // namespace

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  auto answer = ParseSolution(solution, p.board);
  if (!answer.ok()) return answer.status();
  const auto& [layout, claimed] = *answer;

  const std::string problem = LayoutProblem(p.board, layout);
  if (!problem.empty())
    return Status::FailedPrecondition("the solution's layout does not fit: " + problem);
  const int score = PlainScore(p.board, layout);
  if (score != claimed) {
    return Status::FailedPrecondition(
        fmt::format("the solution claims score {}, its layout scores {}", claimed, score));
  }

  if (Status s = Claim("base_score", p.base_score, PlainScore(p.board, BaseLayout(p.board)));
      !s.ok()) {
    return s;
  }
  const Analysis a = Analyze(p.board);
  for (const Status& s : {Claim("greedy_score", p.greedy_score, a.greedy.score()),
                          Claim("target_score", p.target_score, a.target),
                          Claim("best_score", p.best_score, a.best.score)}) {
    if (!s.ok()) return s;
  }
  if (score < p.target_score) {
    return Status::FailedPrecondition(
        fmt::format("the solution scores {}, below the target {}", score, p.target_score));
  }
  return a.difficulty;
}

}  // namespace foundry::puzzles::alignment
