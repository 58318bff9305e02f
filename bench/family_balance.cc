// Throughput of the balance family.
//   BM_BalanceGenerate  Generate() calls/s and accepted puzzles/s, mode
//                       deduction (default params) and strategy (default
//                       params with mode=strategy: 9 distinct puzzles), on 1
//                       thread and on every CPU;
//   BM_BalanceVerify    Verify() calls/s on accepted puzzles of each mode;
//   BM_BalanceSolve     the count-state solver alone: tightness and tree for
//                       the classic 12 coins / 3 weighings and 120 / 5;
//   BM_BalanceLevels    the level distribution of 10,000 accepted deduction
//                       puzzles with default params (for docs/families/).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/balance/balance.h"
#include "puzzles/balance/count_solver.h"
#include "puzzles/family.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::balance {
namespace {

constexpr uint64_t kSeed = 42;

Params ParamsFor(int64_t strategy) {
  std::map<std::string, std::string> raw;
  if (strategy == 1) raw["mode"] = "strategy";
  return *TheFamily().MakeParams(raw);
}

// Arg: 0 deduction, 1 strategy.
void BM_BalanceGenerate(benchmark::State& state) {
  bench::GenerateLoop(state, TheFamily(), ParamsFor(state.range(0)), kSeed);
}
BENCHMARK(BM_BalanceGenerate)
    ->ArgName("strategy")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->ThreadPerCpu()
    ->UseRealTime();

void BM_BalanceVerify(benchmark::State& state) {
  const Family& family = TheFamily();
  const Params params = ParamsFor(state.range(0));
  foundry::bench::RunVerifyBenchmark(state, family, params, kSeed, 128);
}
BENCHMARK(BM_BalanceVerify)->ArgName("strategy")->Arg(0)->Arg(1);

// Args: coins, weighings (variant unknown): a fresh solver each time.
void BM_BalanceSolve(benchmark::State& state) {
  const int coins = static_cast<int>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  size_t states = 0;
  for (auto _ : state) {
    CountSolver solver;
    const CountState start = StartState(Variant::kUnknown, coins);
    if (!solver.Solvable(start, k) || solver.Solvable(start, k - 1))
      state.SkipWithError("not tight");
    auto tree = BuildTree(solver, Variant::kUnknown, coins, k);
    benchmark::DoNotOptimize(tree);
    states = solver.memo_size();
  }
  state.counters["memo_states"] = static_cast<double>(states);
}
BENCHMARK(BM_BalanceSolve)
    ->ArgNames({"coins", "weighings"})
    ->Args({12, 3})
    ->Args({120, 5})
    ->Unit(benchmark::kMicrosecond);

void BM_BalanceLevels(benchmark::State& state) {
  bench::LevelsLoop(state, TheFamily(), ParamsFor(0), kSeed, [](const Accepted&) {});
}
BENCHMARK(BM_BalanceLevels)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace foundry::puzzles::balance
