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

constexpr double kParWeight = 0.75;
constexpr double kGreedyGapWeight = 0.25;
constexpr double kParFloor = 2.0;       // par at which the first term starts
constexpr double kParSpan = 16.0;       // ... and how far above it saturates
constexpr double kGreedyGapSpan = 4.0;  // greedy_gap at which the second saturates

}  // namespace

Difficulty RateDifficulty(const Grid& grid, const Decoding& d) {
  const int gap = d.greedy_moves - d.par();
  const double par = std::clamp((d.par() - kParFloor) / kParSpan, 0.0, 1.0);
  const double waste = std::clamp(gap / kGreedyGapSpan, 0.0, 1.0);
  const double score = std::round((kParWeight * par + kGreedyGapWeight * waste) * 1000) / 1000;
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
