// Single-thread throughput of the secret-number family: Generate() calls per
// second (accepted or rejected, as a worker makes them) for digits 3 (default
// params), 4 and 6; the same search without building the JSON objects
// (secret_number::Search, to show where the time goes); Verify() calls per
// second on accepted puzzles.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/secret_number/generator.h"
#include "puzzles/secret_number/secret_number.h"

namespace foundry::puzzles {
namespace {

constexpr uint64_t kSeed = 42;

Params ParamsFor(int digits) {
  auto p = secret_number::TheFamily().MakeParams(
      std::map<std::string, std::string>{{"digits", std::to_string(digits)}});
  return *p;
}

void BM_SecretNumberGenerate(benchmark::State& state) {
  const Params params = ParamsFor(static_cast<int>(state.range(0)));
  const int64_t accepted = bench::CandidateLoop(state, secret_number::TheFamily(), params, kSeed,
                                                [](const Accepted&) {});
  state.counters["accepted_ratio"] =
      static_cast<double>(accepted) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SecretNumberGenerate)->ArgName("digits")->Arg(3)->Arg(4)->Arg(6);

// The search alone: the same candidates as BM_SecretNumberGenerate, without
// turning the accepted ones into JSON.
void BM_SecretNumberSearchOnly(benchmark::State& state) {
  secret_number::GenerateOptions options;
  options.digits = static_cast<int>(state.range(0));
  uint64_t index = 0;
  int64_t accepted = 0;
  for (auto _ : state) {
    Rng rng = CandidateRng(kSeed, index++);
    auto found = secret_number::Search(rng, options);
    accepted += std::holds_alternative<secret_number::Draft>(found);
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["accepted_ratio"] =
      static_cast<double>(accepted) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SecretNumberSearchOnly)->ArgName("digits")->Arg(3)->Arg(4);

void BM_SecretNumberVerify(benchmark::State& state) {
  const Family& family = secret_number::TheFamily();
  const Params params = ParamsFor(static_cast<int>(state.range(0)));
  foundry::bench::RunVerifyBenchmark(state, family, params, kSeed, 256);
}
BENCHMARK(BM_SecretNumberVerify)->ArgName("digits")->Arg(3)->Arg(6);

}  // namespace
}  // namespace foundry::puzzles
