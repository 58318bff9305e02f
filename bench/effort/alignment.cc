// AlignmentEffort: nodes of a plain exhaustive search for the fewest gaps
// that reach the target score, what a player must find. Iterative
// deepening on the number of gaps k = 0, 1, 2, ...: every multiset of k
// gap slots (slot (c, i) = "one more gap before brick i of column c",
// chosen in non-decreasing slot order so that each layout is visited once),
// the layout scored from scratch at depth k; the first depth with a layout
// at or above the target ends the search. No bound and no pruning beyond the
// rules (height, max_gaps), and nothing from the family's greedy, branch
// and bound or grade: written here.
#include <cstdint>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/alignment/codec.h"

namespace foundry::bench {
namespace {

namespace al = foundry::puzzles::alignment;

// Beyond this many nodes the search stops and reports the count so far.
constexpr int64_t kMaxNodes = 50'000'000;

struct Search {
  const al::Board& board;
  int target = 0;
  int depth = 0;                       // gaps to place in this iteration
  std::vector<std::vector<int>> gaps;  // per column, gaps before each brick
  std::vector<int> column_gaps;        // per column, gaps in all
  int64_t nodes = 0;

  // The seed's score, from the gaps alone.
  int Score() const {
    std::vector<int> matches(board.height, 0);
    for (int c = 0; c < board.width(); ++c) {
      int row = 0;
      const auto& bricks = board.columns[c];
      for (size_t i = 0; i < bricks.size(); ++i) {
        row += gaps[c][i];
        if ((board.guides[row] >> bricks[i]) & 1) ++matches[row];
        ++row;
      }
    }
    int score = 0;
    for (int m : matches) score += m == board.width() ? m * board.row_bonus : m;
    return score;
  }

  // True when some layout with `left` more gaps, in slots from (c, i) on,
  // reaches the target.
  bool Dfs(int left, int c, int i) {
    ++nodes;
    if (left == 0) return Score() >= target;
    if (nodes >= kMaxNodes) return false;
    for (int col = c; col < board.width(); ++col) {
      const int bricks = static_cast<int>(board.columns[col].size());
      if (bricks + column_gaps[col] >= board.height) continue;  // the column is full
      for (int slot = col == c ? i : 0; slot < bricks; ++slot) {
        ++gaps[col][slot];
        ++column_gaps[col];
        const bool found = Dfs(left - 1, col, slot);
        --gaps[col][slot];
        --column_gaps[col];
        if (found) return true;
      }
    }
    return false;
  }
};

Result<double> AlignmentEffort(const nlohmann::json& puzzle, const nlohmann::json& /*solution*/) {
  auto parsed = al::ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const al::Board& b = parsed->board;
  Search s{b, parsed->target_score, 0, {}, std::vector<int>(b.width(), 0), 0};
  for (const auto& column : b.columns) s.gaps.emplace_back(column.size(), 0);
  int room = 0;
  for (const auto& column : b.columns) room += b.height - static_cast<int>(column.size());
  const int most = b.max_gaps > 0 ? b.max_gaps : room;
  for (s.depth = 0; s.depth <= most && s.nodes < kMaxNodes; ++s.depth) {
    if (s.Dfs(s.depth, 0, 0)) break;
  }
  return static_cast<double>(s.nodes);
}

const bool kRegistered =
    RegisterEffort({"alignment", "IDDFS nodes to the target", &AlignmentEffort});

}  // namespace
}  // namespace foundry::bench
