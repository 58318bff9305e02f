// What every family's benchmark measures the same way: Generate() calls per
// second over a campaign's stream, with the accepted ones counted.
#pragma once

#include <cstdint>
#include <variant>

#include <benchmark/benchmark.h>

#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::bench {

// Runs `state`'s iterations as candidates of stream `seed` (each thread its
// own part of it); items per second are candidates, counter
// `accepted_per_s` the accepted ones.
inline void GenerateLoop(benchmark::State& state, const Family& family, const Params& params,
                         uint64_t seed) {
  uint64_t index = static_cast<uint64_t>(state.thread_index()) << 40;
  int64_t accepted = 0;
  for (auto _ : state) {
    Rng rng = CandidateRng(seed, index++);
    Candidate c = family.Generate(rng, params);
    accepted += std::holds_alternative<Accepted>(c);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["accepted_per_s"] =
      benchmark::Counter(static_cast<double>(accepted), benchmark::Counter::kIsRate);
}

}  // namespace foundry::puzzles::bench
