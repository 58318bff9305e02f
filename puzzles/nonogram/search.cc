#include "puzzles/nonogram/search.h"

#include <utility>

namespace foundry::puzzles::nonogram {
namespace {

struct Want {
  int64_t max_nodes;
  const Rows* known;
  Rows* other;
};

void Visit(const Board& board, const Want& want, GuessCount& out) {
  if (out.solutions >= 2 || out.exhausted) return;
  if (++out.nodes > want.max_nodes) {
    out.exhausted = true;
    return;
  }
  if (board.open() == 0) {
    ++out.solutions;
    if (want.known != nullptr && want.other != nullptr) {
      Rows found = board.Filled();
      if (found != *want.known) *want.other = std::move(found);
    }
    return;
  }
  // The first open cell in reading order: its row is partly settled
  // already, which keeps the guesses in one area.
  for (int r = 0; r < board.height(); ++r) {
    for (int c = 0; c < board.width(); ++c) {
      if (board.Known(r, c)) continue;
      for (const bool value : {true, false}) {
        Board next = board;
        next.Set(r, c, value);
        if (next.Propagate(Rule::kFull)) Visit(next, want, out);
      }
      return;
    }
  }
}

bool ImageValue(const Rows& image, int r, int c) {
  return ((image[static_cast<size_t>(r)] >> c) & 1ULL) != 0;
}

// Completes `board` depth-first, the image's value first in each open cell.
bool Complete(const Board& board, const Rows& image, int64_t& budget) {
  if (board.open() == 0) return true;
  for (int r = 0; r < board.height(); ++r) {
    if ((board.RowFill(r) | board.RowEmpty(r)) == LowBits(board.width())) continue;
    const int c = __builtin_ctzll(~(board.RowFill(r) | board.RowEmpty(r)));
    for (const bool value : {ImageValue(image, r, c), !ImageValue(image, r, c)}) {
      if (--budget < 0) return false;
      Board next = board;
      next.Set(r, c, value);
      if (next.Propagate(Rule::kFull) && Complete(next, image, budget)) return true;
    }
    return false;
  }
  return true;
}

}  // namespace

bool FindOtherSolutionNear(const Board& board, const Rows& image, int64_t max_nodes) {
  int64_t budget = max_nodes;
  for (int r = 0; r < board.height(); ++r) {
    for (int c = 0; c < board.width(); ++c) {
      if (board.Known(r, c)) continue;
      if (--budget < 0) return false;
      Board trial = board;
      trial.Set(r, c, !ImageValue(image, r, c));
      // A grid completed from here differs from the image at (r, c).
      if (trial.Propagate(Rule::kFull) && Complete(trial, image, budget)) return true;
    }
  }
  return false;
}

GuessCount CountToTwo(const Board& board, int64_t max_nodes, const Rows* known, Rows* other) {
  GuessCount out;
  Visit(board, Want{max_nodes, known, other}, out);
  return out;
}

}  // namespace foundry::puzzles::nonogram
