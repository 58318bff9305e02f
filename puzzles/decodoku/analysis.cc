#include "puzzles/decodoku/analysis.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <string_view>

namespace foundry::puzzles::decodoku {
namespace {

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

constexpr double kGreedyGapWeight = 1.0;  // a move the obvious play wastes: one detour
constexpr int kLinearPoints = 3;          // points that each add a quarter

// 0, 0.25, 0.5, 0.75 for 0..3 points (one level each), then halfway to 1
// for every further point, so larger grids keep an order among experts.
double ScoreForPoints(double points) {
  if (points <= kLinearPoints) return points / 4.0;
  return 1.0 - 0.25 * std::pow(0.5, points - kLinearPoints);
}

}  // namespace

Difficulty RateDifficulty(const Grid& grid, const Decoding& d) {
  const int gap = std::max(0, d.greedy_moves - d.par());
  const int detours = std::max(0, 2 * d.par() - grid.NonZero());
  const double points = detours + kGreedyGapWeight * gap;
  const double score = std::round(ScoreForPoints(points) * 1000) / 1000;
  Difficulty out;
  out.level = LevelForScore(score, kLevelFloors);
  out.score = score;
  const std::set<int> clusters(grid.clusters.begin(), grid.clusters.end());
  out.details = nlohmann::json::object();
  out.details["par"] = d.par();
  out.details["decoder"] = std::string(d.decoder());
  out.details["greedy_moves"] = d.greedy_moves;
  out.details["lower_bound"] = d.lower_bound;
  out.details["numbers"] = grid.NonZero();
  out.details["clusters"] = static_cast<int>(clusters.size()) - (clusters.count(0) ? 1 : 0);
  out.details["detours"] = detours;
  out.details["search_nodes"] = d.nodes;
  return out;
}

Analysis Analyze(const Grid& grid) {
  Analysis a;
  a.decoding = Decode(grid);
  a.difficulty = RateDifficulty(grid, a.decoding);
  return a;
}

}  // namespace foundry::puzzles::decodoku
