#include "coordinator/player_metrics.h"

#include "common/metric_builders.h"

namespace foundry::coordinator {
namespace {

prometheus::Family<prometheus::Counter>& Plays(prometheus::Registry& registry) {
  return metrics::CounterFamily(
      registry, "foundry_plays_total",
      "Plays recorded by RecordPlay, by kind: judged (from an answer), claimed (the client's "
      "word), replayed (a play_id seen before; nothing recorded again)");
}

}  // namespace

PlayerMetrics::PlayerMetrics(prometheus::Registry& registry)
    : judged_(Plays(registry).Add({{"kind", "judged"}})),
      claimed_(Plays(registry).Add({{"kind", "claimed"}})),
      replayed_(Plays(registry).Add({{"kind", "replayed"}})),
      rating_updates_(
          metrics::Counter(registry, "foundry_rating_updates_total",
                           "Rated plays: each changed a player's and a puzzle's Glicko-2 rating")),
      next_calls_(metrics::Counter(registry, "foundry_next_puzzle_calls_total",
                                   "NextPuzzle calls that reached the store")),
      next_exhausted_(metrics::Counter(
          registry, "foundry_next_puzzle_exhausted_total",
          "NextPuzzle calls answered RESOURCE_EXHAUSTED: the player had had every puzzle of "
          "the family")) {}

void PlayerMetrics::Played(const foundry::v1::RecordPlayResponse& resp) {
  if (resp.replayed()) {
    replayed_.Increment();
    return;
  }
  (resp.judged() ? judged_ : claimed_).Increment();
  if (resp.rated()) rating_updates_.Increment();
}

void PlayerMetrics::NextPuzzle(bool exhausted) {
  next_calls_.Increment();
  if (exhausted) next_exhausted_.Increment();
}

}  // namespace foundry::coordinator
