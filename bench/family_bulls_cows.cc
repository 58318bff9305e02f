// Throughput of the bulls-cows family and the inverse-problem table.
//   BM_BullsCowsGenerate  Generate() calls/s and accepted puzzles/s with
//                         default params, on 1 thread and on every CPU;
//   BM_BullsCowsVerify    Verify() calls/s on accepted puzzles;
//   BM_BullsCowsStrategy  the seed's strategy, ours and the optimal tree
//                         played against every secret of length 4, with
//                         and without a leading zero: total, average and
//                         worst number of guesses (the optimal tree covers
//                         the leading-zero game; without one it plays ours);
//   BM_BullsCowsLevels    the level distribution of 10,000 accepted puzzles
//                         with default params (for docs/families/).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/bulls_cows/bulls_cows.h"
#include "puzzles/bulls_cows/codes.h"
#include "puzzles/bulls_cows/strategy.h"
#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::bulls_cows {
namespace {

constexpr uint64_t kSeed = 42;

Params Defaults() { return *TheFamily().MakeParams(std::map<std::string, std::string>{}); }

void BM_BullsCowsGenerate(benchmark::State& state) {
  bench::GenerateLoop(state, TheFamily(), Defaults(), kSeed);
}
BENCHMARK(BM_BullsCowsGenerate)->Threads(1)->ThreadPerCpu()->UseRealTime();

void BM_BullsCowsVerify(benchmark::State& state) {
  const Family& family = TheFamily();
  const Params params = Defaults();
  foundry::bench::RunVerifyBenchmark(state, family, params, kSeed, 128);
}
BENCHMARK(BM_BullsCowsVerify);

// Args: leading_zero (0/1), strategy (0 seed, 1 ours, 2 optimal).
void BM_BullsCowsStrategy(benchmark::State& state) {
  const Universe& u = Universe::For(4, state.range(0) == 1);
  constexpr StrategyKind kKinds[] = {StrategyKind::kSeed, StrategyKind::kOurs,
                                     StrategyKind::kOptimal};
  const StrategyKind kind = kKinds[state.range(1)];
  StrategyStats s;
  for (auto _ : state) s = Evaluate(u, kind);
  state.counters["secrets"] = static_cast<double>(s.secrets);
  state.counters["total_guesses"] = static_cast<double>(s.total_guesses);
  state.counters["avg_guesses"] = s.average();
  state.counters["worst_guesses"] = s.worst;
}
BENCHMARK(BM_BullsCowsStrategy)
    ->ArgNames({"leading_zero", "strategy"})
    ->ArgsProduct({{0, 1}, {0, 1, 2}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void BM_BullsCowsLevels(benchmark::State& state) {
  std::map<int64_t, int64_t> clues;
  bench::LevelsLoop(state, TheFamily(), Defaults(), kSeed,
                    [&](Accepted& a) { ++clues[a.difficulty.details["clues"].get<int64_t>()]; });
  for (const auto& [n, count] : clues) state.counters["clues_" + std::to_string(n)] = count;
}
BENCHMARK(BM_BullsCowsLevels)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace foundry::puzzles::bulls_cows
