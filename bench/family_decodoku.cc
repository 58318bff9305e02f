// Decodoku family benchmarks (issue 4):
//  * BM_DecodokuGenerate: Generate() calls per second at size 8 (defaults)
//    and with rounds 3, on 1 thread and 2 threads; counter: accepted per
//    second.
//  * BM_DecodokuExactVsGreedy: 1,000 positions (the game after `rounds`
//    noise rounds, size 8), each decoded by the greedy and by the exact
//    search; counters: the share where the exact search finished, the share
//    where the greedy is optimal, the mean and max extra moves of the greedy
//    over proved par, the mean exact-search nodes.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "puzzles/decodoku/decoder.h"
#include "puzzles/decodoku/decodoku.h"
#include "puzzles/decodoku/game.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {
namespace {

constexpr uint64_t kSeed = 42;

void BM_DecodokuGenerate(benchmark::State& state) {
  const Params params = *TheFamily().MakeParams(
      std::map<std::string, std::string>{{"rounds", std::to_string(state.range(0))}});
  bench::GenerateLoop(state, TheFamily(), params, kSeed);
}
BENCHMARK(BM_DecodokuGenerate)->ArgName("rounds")->Arg(1)->Arg(3)->UseRealTime();
BENCHMARK(BM_DecodokuGenerate)->ArgName("rounds")->Arg(1)->Threads(2)->UseRealTime();

void BM_DecodokuExactVsGreedy(benchmark::State& state) {
  const int rounds = static_cast<int>(state.range(0));
  constexpr int kPositions = 1000;
  int64_t exact = 0, optimal = 0, extra = 0, max_extra = 0, nodes = 0;
  for (auto _ : state) {
    exact = optimal = extra = max_extra = nodes = 0;
    for (int i = 0; i < kPositions; ++i) {
      Rng rng = CandidateRng(kSeed, static_cast<uint64_t>(i));
      const GameResult game = PlayGame(rng, GameOptions{}, GreedyPolicy, rounds);
      const Decoding d = Decode(game.grid);
      nodes += d.nodes;
      if (!d.exact) continue;
      ++exact;
      const int over = d.greedy_moves - d.par();
      optimal += over == 0;
      extra += over;
      max_extra = std::max<int64_t>(max_extra, over);
    }
  }
  state.counters["exact_share"] = static_cast<double>(exact) / kPositions;
  state.counters["greedy_optimal_share"] =
      static_cast<double>(optimal) / std::max<int64_t>(exact, 1);
  state.counters["greedy_extra_mean"] = static_cast<double>(extra) / std::max<int64_t>(exact, 1);
  state.counters["greedy_extra_max"] = static_cast<double>(max_extra);
  state.counters["nodes_mean"] = static_cast<double>(nodes) / kPositions;
}
BENCHMARK(BM_DecodokuExactVsGreedy)
    ->ArgName("rounds")
    ->Arg(1)
    ->Arg(3)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace foundry::puzzles::decodoku
