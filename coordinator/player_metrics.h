// The coordinator's players' metrics (docs/metrics.md, "Players"): plays by
// kind, rating updates, NextPuzzle calls and exhausted answers.
//
// Thread safety: prometheus-cpp metrics are thread-safe; so is this.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>

#include "foundry/v1/store.pb.h"

namespace foundry::coordinator {

class PlayerMetrics {
 public:
  // Registers the metrics in `registry`, which must outlive this object.
  // Every label value exists from the start, at 0.
  explicit PlayerMetrics(prometheus::Registry& registry);

  // A RecordPlay that succeeded, counted by `resp`: replayed (a play_id
  // seen before: nothing recorded), else judged or claimed, and a rating
  // update when it was rated.
  void Played(const foundry::v1::RecordPlayResponse& resp);
  // A NextPuzzle call that reached the store; `exhausted` when the player
  // had had every puzzle of the family (RESOURCE_EXHAUSTED).
  void NextPuzzle(bool exhausted);

 private:
  prometheus::Counter& judged_;
  prometheus::Counter& claimed_;
  prometheus::Counter& replayed_;
  prometheus::Counter& rating_updates_;
  prometheus::Counter& next_calls_;
  prometheus::Counter& next_exhausted_;
};

}  // namespace foundry::coordinator
