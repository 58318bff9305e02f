// nonogram family benchmarks: BM_NonogramGenerate/<side>/<level>, Generate()
// calls per second at side x side with the level asked for (-1: any level),
// automatic density; counter accepted_per_s, the puzzles per second.
// BM_NonogramVerify: Verify (the independent search and the grade) on
// generated puzzles of each level.
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "puzzles/nonogram/nonogram.h"

namespace foundry::puzzles::nonogram {
namespace {

Params ParamsFor(int side, int level) {
  std::map<std::string, std::string> raw = {{"width", std::to_string(side)},
                                            {"height", std::to_string(side)}};
  if (level >= 0) raw["level"] = std::string(kLevels[level]);
  return *TheFamily().MakeParams(raw);
}

void BM_NonogramGenerate(benchmark::State& state) {
  const Params params =
      ParamsFor(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  bench::GenerateLoop(state, TheFamily(), params, /*seed=*/42);
}
BENCHMARK(BM_NonogramGenerate)
    ->ArgsProduct({{10, 15, 20}, {-1, 0, 1, 2, 3}})
    ->ArgNames({"side", "level"})
    ->UseRealTime();

void BM_NonogramVerify(benchmark::State& state) {
  const Params params =
      ParamsFor(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::vector<Accepted> sample;
  for (uint64_t i = 0; sample.size() < 50 && i < 200000; ++i) {
    Rng rng = CandidateRng(7, i);
    Candidate c = TheFamily().Generate(rng, params);
    if (auto* a = std::get_if<Accepted>(&c)) sample.push_back(std::move(*a));
  }
  size_t k = 0;
  for (auto _ : state) {
    const Accepted& a = sample[k++ % sample.size()];
    benchmark::DoNotOptimize(TheFamily().Verify(a.puzzle, a.solution));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NonogramVerify)->ArgsProduct({{10, 15}, {0, 1, 2, 3}})->ArgNames({"side", "level"});

}  // namespace
}  // namespace foundry::puzzles::nonogram
