#include "puzzles/nonogram/verifier.h"

#include <fmt/format.h>

#include "puzzles/nonogram/board.h"
#include "puzzles/nonogram/codec.h"
#include "puzzles/nonogram/grader.h"
#include "puzzles/nonogram/placement_solver.h"

namespace foundry::puzzles::nonogram {

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto rows = ParseSolution(*p, solution);
  if (!rows.ok()) return rows.status();
  for (int r = 0; r < p->height; ++r) {
    if (RunsOf((*rows)[static_cast<size_t>(r)], p->width) != p->rows[static_cast<size_t>(r)]) {
      return Status::FailedPrecondition(
          fmt::format("solution row {} does not show its clue", r + 1));
    }
  }
  for (int c = 0; c < p->width; ++c) {
    if (RunsOf(Column(*rows, c), p->height) != p->columns[static_cast<size_t>(c)]) {
      return Status::FailedPrecondition(
          fmt::format("solution column {} does not show its clue", c + 1));
    }
  }
  // The solution fits, so there is one; Verify's own search says whether
  // there is a second.
  const SearchCount count = CountSolutions(*p, 2, kVerifyMaxNodes);
  if (count.exhausted) {
    return Status::FailedPrecondition(
        fmt::format("uniqueness not settled within {} search nodes", kVerifyMaxNodes));
  }
  if (count.solutions != 1) return Status::FailedPrecondition("puzzle has more than one solution");
  const LineSet lines(*p);
  Board board(lines);
  const Grading g = Grade(board, &*rows);
  return ToDifficulty(g, p->width * p->height);
}

}  // namespace foundry::puzzles::nonogram
