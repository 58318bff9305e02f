#include "puzzles/alignment/generator.h"

#include <set>
#include <string>
#include <vector>

#include "puzzles/alignment/codec.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr int kSecondGuideOneIn = 4;
constexpr int kSubstitutionOneIn = 6;

// A colour other than `c`, uniformly among `colors`.
uint8_t OtherColor(Rng& rng, uint8_t c, int colors) {
  auto x = static_cast<uint8_t>(rng.Below(colors - 1));
  return x >= c ? x + 1 : x;
}

}  // namespace

Board RandomBoard(Rng& rng, const GenerateOptions& o) {
  Board b;
  b.height = o.height;
  b.row_bonus = o.row_bonus;
  b.max_gaps = o.max_gaps;
  std::vector<uint8_t> ancestor(o.height);
  for (auto& a : ancestor) a = static_cast<uint8_t>(rng.Below(o.colors));
  b.guides.resize(o.height);
  for (int r = 0; r < o.height; ++r) {
    b.guides[r] = static_cast<uint8_t>(1u << ancestor[r]);
    if (rng.Below(kSecondGuideOneIn) == 0) {
      b.guides[r] |= static_cast<uint8_t>(1u << OtherColor(rng, ancestor[r], o.colors));
    }
  }
  b.columns.resize(o.columns);
  for (auto& column : b.columns) {
    const auto n = static_cast<size_t>(rng.Between(o.min_len, o.max_len));
    column = ancestor;
    while (column.size() > n)
      column.erase(column.begin() + static_cast<long>(rng.Below(column.size())));
    for (auto& brick : column) {
      if (rng.Below(kSubstitutionOneIn) == 0) brick = OtherColor(rng, brick, o.colors);
    }
  }
  return b;
}

std::string_view AcceptanceFailure(const GreedyResult& greedy, const GenerateOptions& o) {
  if (greedy.score() - greedy.base() < o.min_improvement) return "small_improvement";
  std::set<int> columns, rows;
  for (size_t c = 0; c < greedy.layout.size(); ++c) {
    for (size_t r = 0; r < greedy.layout[c].size(); ++r) {
      if (greedy.layout[c][r] == kGap) {
        columns.insert(static_cast<int>(c));
        rows.insert(static_cast<int>(r));
      }
    }
  }
  if (static_cast<int>(columns.size()) < o.min_gap_columns ||
      static_cast<int>(rows.size()) < o.min_gap_rows) {
    return "gaps_not_varied";
  }
  return "";
}

Accepted Materialize(const Board& board, const Analysis& a) {
  Accepted out;
  out.puzzle = PuzzleJson(board, a);
  out.solution = {{"layout", LayoutStrings(a.best.layout)}, {"score", a.best.score}};
  out.difficulty = a.difficulty;
  return out;
}

Candidate Generate(Rng& rng, const GenerateOptions& options) {
  const Board board = RandomBoard(rng, options);
  GreedyResult greedy = Greedy(board);
  const std::string_view failure = AcceptanceFailure(greedy, options);
  if (!failure.empty()) return Rejected{std::string(failure)};
  return Materialize(board, Analyze(board, std::move(greedy)));
}

}  // namespace foundry::puzzles::alignment
