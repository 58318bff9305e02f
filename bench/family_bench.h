// What every family's benchmark measures the same way: Generate() calls per
// second over a campaign's stream, with the accepted ones counted.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <variant>

#include <benchmark/benchmark.h>

#include "puzzles/family.h"
#include "puzzles/levels.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::bench {

// Runs `state`'s iterations as candidates of stream `seed` (each thread its
// own part of it), handing each accepted one to `on_accepted` (mutable, so
// it may read the JSON with operator[]); items per second are candidates.
// Returns how many were accepted.
template <typename OnAccepted>
int64_t CandidateLoop(benchmark::State& state, const Family& family, const Params& params,
                      uint64_t seed, OnAccepted on_accepted) {
  uint64_t index = static_cast<uint64_t>(state.thread_index()) << 40;
  int64_t accepted = 0;
  for (auto _ : state) {
    Rng rng = CandidateRng(seed, index++);
    Candidate c = family.Generate(rng, params);
    if (auto* a = std::get_if<Accepted>(&c)) {
      ++accepted;
      on_accepted(*a);
    }
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  return accepted;
}

// CandidateLoop with counter `accepted_per_s`, the accepted ones per second.
inline void GenerateLoop(benchmark::State& state, const Family& family, const Params& params,
                         uint64_t seed) {
  const int64_t accepted = CandidateLoop(state, family, params, seed, [](const Accepted&) {});
  state.counters["accepted_per_s"] =
      benchmark::Counter(static_cast<double>(accepted), benchmark::Counter::kIsRate);
}

// Each iteration draws candidates of stream `seed` until one is accepted (a
// level asked for); items per second are puzzles, counter
// `candidates_per_puzzle` the draws each took.
inline void AcceptedLoop(benchmark::State& state, const Family& family, const Params& params,
                         uint64_t seed) {
  uint64_t index = 0;
  int64_t accepted = 0;
  for (auto _ : state) {
    for (;;) {
      Rng rng = CandidateRng(seed, index++);
      if (std::holds_alternative<Accepted>(family.Generate(rng, params))) break;
    }
    ++accepted;
  }
  state.SetItemsProcessed(accepted);
  state.counters["candidates_per_puzzle"] =
      static_cast<double>(index) / static_cast<double>(accepted);
}

// Counts accepted puzzles by level; Report() gives each level's share of
// the candidates as a counter named after it.
class LevelShares {
 public:
  void Add(const Accepted& a) {
    for (size_t l = 0; l < std::size(kLevels); ++l) counts_[l] += a.difficulty.level == kLevels[l];
  }
  void Report(benchmark::State& state) const {
    const double n = static_cast<double>(state.iterations());
    for (size_t l = 0; l < std::size(kLevels); ++l) {
      state.counters[std::string(kLevels[l])] = static_cast<double>(counts_[l]) / n;
    }
  }

 private:
  int64_t counts_[std::size(kLevels)] = {};
};

// The level distribution of the first 10,000 accepted puzzles of stream
// `seed`, as one counter per level plus `candidates`; `on_accepted` sees each
// accepted one too (for a family's own counters).
template <typename OnAccepted>
void LevelsLoop(benchmark::State& state, const Family& family, const Params& params, uint64_t seed,
                OnAccepted on_accepted) {
  std::map<std::string, int64_t> levels;
  int64_t candidates = 0;
  for (auto _ : state) {
    levels.clear();
    int64_t accepted = 0;
    for (uint64_t i = 0; accepted < 10000; ++i, ++candidates) {
      Rng rng = CandidateRng(seed, i);
      Candidate c = family.Generate(rng, params);
      if (auto* a = std::get_if<Accepted>(&c)) {
        ++accepted;
        ++levels[a->difficulty.level];
        on_accepted(*a);
      }
    }
  }
  for (const auto& [level, n] : levels) state.counters[level] = static_cast<double>(n);
  state.counters["candidates"] = static_cast<double>(candidates);
}

}  // namespace foundry::puzzles::bench
