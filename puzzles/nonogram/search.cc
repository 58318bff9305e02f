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

}  // namespace

GuessCount CountToTwo(const Board& board, int64_t max_nodes, const Rows* known, Rows* other) {
  GuessCount out;
  Visit(board, Want{max_nodes, known, other}, out);
  return out;
}

}  // namespace foundry::puzzles::nonogram
