#include "puzzles/decodoku/verifier.h"

#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "puzzles/decodoku/analysis.h"
#include "puzzles/decodoku/codec.h"

namespace foundry::puzzles::decodoku {

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const Grid& g = *parsed;
  auto answer = ParseSolution(solution);
  if (!answer.ok()) return answer.status();
  const auto& [moves, claimed_par] = *answer;
  const int n = g.size;

  std::map<int, int> sums;
  for (int i = 0; i < n * n; ++i) {
    if (g.clusters[i] != 0) sums[g.clusters[i]] += g.values[i];
  }
  for (const auto& [id, sum] : sums) {
    if (sum % 10 != 0) {
      return Status::FailedPrecondition(fmt::format(
          "cluster {} sums to {}, not 0 mod 10: the grid cannot come from noise", id, sum));
    }
  }
  if (IsLost(g))
    return Status::FailedPrecondition("a cluster spans the grid: the game is already lost");

  // Replay, with nothing but the numbers.
  std::vector<int> v(g.values.begin(), g.values.end());
  for (size_t k = 0; k < moves.size(); ++k) {
    const Move& m = moves[k];
    const bool inside = m.x1 < n && m.y1 < n && m.x2 < n && m.y2 < n;  // >= 0 by parsing
    if (!inside || std::abs(m.x1 - m.x2) + std::abs(m.y1 - m.y2) != 1 || v[m.y1 * n + m.x1] == 0) {
      return Status::FailedPrecondition(
          fmt::format("move {} [{},{},{},{}] is not a number moving to a neighbouring square",
                      k + 1, m.x1, m.y1, m.x2, m.y2));
    }
    int& to = v[m.y2 * n + m.x2];
    to = (to + v[m.y1 * n + m.x1]) % 10;
    v[m.y1 * n + m.x1] = 0;
  }
  for (int i = 0; i < n * n; ++i) {
    if (v[i] != 0) {
      return Status::FailedPrecondition(fmt::format(
          "the moves leave {} at ({},{}): the grid is not cleared", v[i], i % n, i / n));
    }
  }
  if (static_cast<int>(moves.size()) != claimed_par) {
    return Status::FailedPrecondition(
        fmt::format("the solution has {} moves but claims par {}", moves.size(), claimed_par));
  }
  const Analysis a = Analyze(g);
  if (a.decoding.par() != claimed_par) {
    return Status::FailedPrecondition(
        fmt::format("the solution clears in {} moves, but par is {} ({} decoder)", claimed_par,
                    a.decoding.par(), a.decoding.decoder()));
  }
  return a.difficulty;
}

}  // namespace foundry::puzzles::decodoku
