#include "storage/observed_difficulty.h"

#include <algorithm>
#include <limits>

namespace foundry::storage {

Observed Observe(double score, const PlayCounts& plays) {
  const double prior = std::clamp(score, 0.0, 1.0);
  const double solved = static_cast<double>(plays.solved);
  const double failed = static_cast<double>(plays.failed);
  Observed o;
  o.score = (kPriorPlays * prior + failed) / (kPriorPlays + solved + failed);
  o.solve_rate = 1.0 - o.score;
  o.plays = plays.solved > std::numeric_limits<uint64_t>::max() - plays.failed
                ? std::numeric_limits<uint64_t>::max()
                : plays.solved + plays.failed;
  o.mean_solve_seconds =
      plays.solved == 0 ? 0.0 : static_cast<double>(plays.solve_ms) / 1000.0 / solved;
  return o;
}

void SetPlayFields(double score, const PlayCounts& plays, foundry::v1::Puzzle& puzzle) {
  const Observed o = Observe(score, plays);
  auto* stats = puzzle.mutable_plays();
  stats->set_solved(plays.solved);
  stats->set_failed(plays.failed);
  stats->set_mean_solve_seconds(o.mean_solve_seconds);
  auto* observed = puzzle.mutable_observed();
  observed->set_score(o.score);
  observed->set_solve_rate(o.solve_rate);
  observed->set_plays(o.plays);
}

}  // namespace foundry::storage
