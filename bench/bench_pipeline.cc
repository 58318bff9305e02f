// The worker's job executor: accepted puzzles per second on one thread and on
// every thread, candidates generated exactly as in a campaign (RNG per index,
// JSON serialised, output merged in index order).
#include <atomic>
#include <thread>

#include <benchmark/benchmark.h>

#include "puzzles/registry.h"
#include "worker/job_executor.h"

namespace {

void BM_ExecutorSecretNumber(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const auto* family = *foundry::puzzles::FindFamily("secret-number");
  foundry::worker::JobExecutor executor(threads);
  std::atomic<bool> cancel{false};
  constexpr uint64_t kJob = 8192;
  uint64_t first = 0, accepted = 0;
  for (auto _ : state) {
    foundry::worker::JobSpec spec{family, *family->MakeParams(std::map<std::string, std::string>{}),
                                  7, first, first + kJob};
    auto out = executor.Run(spec, cancel);
    accepted += out.puzzles.size();
    first += kJob;
    benchmark::DoNotOptimize(out);
  }
  state.counters["puzzles_per_second"] =
      benchmark::Counter(static_cast<double>(accepted), benchmark::Counter::kIsRate);
  state.counters["threads"] = threads;
}
BENCHMARK(BM_ExecutorSecretNumber)
    ->Arg(1)
    ->Arg(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
