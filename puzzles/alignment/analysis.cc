#include "puzzles/alignment/analysis.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

namespace foundry::puzzles::alignment {
namespace {

// The one table of levels: the least score of each, easiest first.
constexpr LevelFloors kLevelFloors = kQuartileFloors;

constexpr double kStepsWeight = 0.7;
constexpr double kHeadroomWeight = 0.3;
constexpr double kStepsSpan = 3.0;  // steps at which the first term saturates: 1 + this

}  // namespace

int TargetScore(int base, int greedy) { return base + (greedy - base + 1) / 2; }

Difficulty RateDifficulty(const GreedyResult& greedy, const BestResult& best, int target,
                          int steps_to_target) {
  const int headroom = best.score - greedy.score();
  const double steps = std::clamp((steps_to_target - 1) / kStepsSpan, 0.0, 1.0);
  const int reachable = best.score - greedy.base();
  const double room = reachable <= 0 ? 0.0 : std::clamp(double(headroom) / reachable, 0.0, 1.0);
  const double score = std::round((kStepsWeight * steps + kHeadroomWeight * room) * 1000) / 1000;
  Difficulty d;
  d.level = LevelForScore(score, kLevelFloors);
  d.score = score;
  d.details = nlohmann::json::object();
  d.details["base"] = greedy.base();
  d.details["target"] = target;
  d.details["greedy"] = greedy.score();
  d.details["best"] = best.score;
  d.details["headroom"] = headroom;
  d.details["greedy_gaps"] = greedy.gaps();
  d.details["steps_to_target"] = steps_to_target;
  d.details["best_method"] = best.exact ? "exact" : "beam";
  d.details["search_nodes"] = best.nodes;
  return d;
}

Analysis Analyze(const Board& board) { return Analyze(board, Greedy(board)); }

Analysis Analyze(const Board& board, GreedyResult greedy) {
  Analysis a;
  a.greedy = std::move(greedy);
  a.best = BestScore(board, a.greedy);
  a.target = TargetScore(a.greedy.base(), a.greedy.score());
  const auto& scores = a.greedy.scores;
  a.steps_to_target = static_cast<int>(
      std::find_if(scores.begin(), scores.end(), [&](int s) { return s >= a.target; }) -
      scores.begin());
  a.difficulty = RateDifficulty(a.greedy, a.best, a.target, a.steps_to_target);
  return a;
}

}  // namespace foundry::puzzles::alignment
