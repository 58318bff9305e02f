// Shared by the family benchmarks: a fixed sample of accepted puzzles, and
// the Verify() benchmark loop over it.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include <benchmark/benchmark.h>

#include "puzzles/family.h"

namespace foundry::bench {

// The first `n` accepted candidates of the stream with `seed`.
inline std::vector<puzzles::Accepted> SampleAccepted(const puzzles::Family& family,
                                                     const puzzles::Params& params, uint64_t seed,
                                                     size_t n) {
  std::vector<puzzles::Accepted> out;
  for (uint64_t i = 0; out.size() < n; ++i) {
    puzzles::Rng rng = puzzles::CandidateRng(seed, i);
    puzzles::Candidate c = family.Generate(rng, params);
    if (auto* a = std::get_if<puzzles::Accepted>(&c)) out.push_back(std::move(*a));
  }
  return out;
}

// Verifies `n` sampled puzzles round robin; items per second = verifications.
inline void RunVerifyBenchmark(benchmark::State& state, const puzzles::Family& family,
                               const puzzles::Params& params, uint64_t seed, size_t n) {
  const auto sample = SampleAccepted(family, params, seed, n);
  size_t next = 0;
  for (auto _ : state) {
    const puzzles::Accepted& a = sample[next++ % sample.size()];
    auto d = family.Verify(a.puzzle, a.solution);
    if (!d.ok()) state.SkipWithError(d.status().ToString().c_str());
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace foundry::bench
