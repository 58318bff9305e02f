// Single-thread throughput of the zebra family:
//   BM_ZebraGenerate/houses/categories   Generate() calls per second (minimal,
//                                        any level); counters: share of each
//                                        level, mean clues
//   BM_ZebraBuildOnly/5/5                the same without the JSON objects
//   BM_ZebraGenerateLevel/level          accepted 5x5 puzzles per second when a
//                                        level is asked for
//   BM_ZebraVerify/5/5                   Family::Verify (independent
//                                        backtracking + grade)
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/zebra/generator.h"
#include "puzzles/zebra/zebra.h"

namespace foundry::puzzles {
namespace {

constexpr uint64_t kSeed = 42;

Params ParamsFor(std::map<std::string, std::string> raw) {
  return *zebra::TheFamily().MakeParams(raw);
}

void BM_ZebraGenerate(benchmark::State& state) {
  const Params params = ParamsFor(
      {{"houses", std::to_string(state.range(0))}, {"categories", std::to_string(state.range(1))}});
  bench::LevelShares shares;
  int64_t clues = 0;
  const int64_t accepted =
      bench::CandidateLoop(state, zebra::TheFamily(), params, kSeed, [&](Accepted& a) {
        clues += static_cast<int64_t>(a.puzzle["clues"].size());
        shares.Add(a);
      });
  shares.Report(state);
  state.counters["clues"] =
      accepted ? static_cast<double>(clues) / static_cast<double>(accepted) : 0;
}
BENCHMARK(BM_ZebraGenerate)
    ->ArgNames({"houses", "categories"})
    ->Args({5, 5})
    ->Args({3, 3})
    ->Args({4, 4})
    ->Args({6, 6})
    ->Args({8, 8})
    ->Unit(benchmark::kMicrosecond);

void BM_ZebraBuildOnly(benchmark::State& state) {
  zebra::GenerateOptions o;
  o.houses = static_cast<int>(state.range(0));
  o.categories = static_cast<int>(state.range(1));
  uint64_t index = 0;
  for (auto _ : state) {
    Rng rng = CandidateRng(kSeed, index++);
    zebra::Draft d;
    const char* reason = "";
    benchmark::DoNotOptimize(zebra::Build(rng, o, &d, &reason));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ZebraBuildOnly)
    ->ArgNames({"houses", "categories"})
    ->Args({5, 5})
    ->Unit(benchmark::kMicrosecond);

void BM_ZebraGenerateLevel(benchmark::State& state) {
  const std::string level(kLevels[state.range(0)]);
  state.SetLabel(level);
  bench::AcceptedLoop(state, zebra::TheFamily(), ParamsFor({{"level", level}}), kSeed);
}
BENCHMARK(BM_ZebraGenerateLevel)->ArgName("level")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

void BM_ZebraVerify(benchmark::State& state) {
  const Family& family = zebra::TheFamily();
  const Params params = ParamsFor(
      {{"houses", std::to_string(state.range(0))}, {"categories", std::to_string(state.range(1))}});
  foundry::bench::RunVerifyBenchmark(state, family, params, kSeed, 128);
}
BENCHMARK(BM_ZebraVerify)
    ->ArgNames({"houses", "categories"})
    ->Args({5, 5})
    ->Args({8, 8})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace foundry::puzzles
