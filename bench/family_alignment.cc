// Alignment family benchmarks (issue 4):
//  * BM_AlignmentGreedy{Optimised,Plain}: the seed's greedy on the boards of
//    accepted puzzles, optimised (the library) and plain (every trial gap
//    rescored from scratch, the seed's "before"), in the same run; counters:
//    evaluations per puzzle (full score computations, the seed's measure:
//    120 -> 28 on its 6x5 example) and, on the plain one, the ratio.
//  * BM_AlignmentGenerate: Generate() calls at 6x8 (defaults), 6x5 and a
//    Borderlands-like 12x20; counters: accepted puzzles per second, the
//    share where the greedy is optimal (best_score == greedy_score, over
//    exact searches) and the share solved exactly (else beam search).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/alignment/alignment.h"
#include "puzzles/alignment/board.h"
#include "puzzles/alignment/codec.h"
#include "puzzles/alignment/greedy.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr uint64_t kSeed = 42;

std::map<std::string, std::string> Shape(int64_t which) {
  switch (which) {
    case 0:
      return {};  // defaults: 6 columns x 8 rows, 4..6 bricks
    case 1:
      return {{"columns", "6"}, {"height", "5"}, {"min_len", "3"}, {"max_len", "5"}};
    default:
      return {{"columns", "12"}, {"height", "20"}, {"min_len", "14"}, {"max_len", "18"}};
  }
}
const char* kShapeNames = "shape(0=6x8,1=6x5,2=12x20)";

Params ParamsFor(int64_t which) { return *TheFamily().MakeParams(Shape(which)); }

// The boards of the first `count` accepted puzzles of the stream.
std::vector<Board> AcceptedBoards(int64_t which, int count) {
  std::vector<Board> boards;
  for (const Accepted& a : foundry::bench::SampleAccepted(TheFamily(), ParamsFor(which), kSeed,
                                                          static_cast<size_t>(count))) {
    boards.push_back(ParsePuzzle(a.puzzle)->board);
  }
  return boards;
}

// The seed's plain greedy: cells as strings, every trial rescored.
int64_t PlainGreedyEvaluations(const Board& b, int* score_out) {
  std::vector<std::string> layout = LayoutStrings(BaseLayout(b));
  const auto score = [&](const std::vector<std::string>& l) {
    int total = 0;
    for (int r = 0; r < b.height; ++r) {
      int m = 0;
      for (const auto& col : l) {
        if (r < static_cast<int>(col.size()) && col[r] != kGapLetter &&
            ((b.guides[r] >> kColorLetters.find(col[r])) & 1)) {
          ++m;
        }
      }
      total += RowScore(m, b.width(), b.row_bonus);
    }
    return total;
  };
  int64_t evaluations = 1;
  int current = score(layout), gaps = 0;
  while (b.max_gaps == 0 || gaps < b.max_gaps) {
    int best = current;
    std::vector<std::string> best_layout;
    for (size_t c = 0; c < layout.size(); ++c) {
      if (static_cast<int>(layout[c].size()) >= b.height) continue;
      for (size_t i = 0; i < layout[c].size(); ++i) {
        auto trial = layout;
        trial[c].insert(i, 1, kGapLetter);
        ++evaluations;
        const int s = score(trial);
        if (s > best) {
          best = s;
          best_layout = std::move(trial);
        }
      }
    }
    if (best_layout.empty()) break;
    layout = std::move(best_layout);
    current = best;
    ++gaps;
  }
  *score_out = current;
  return evaluations;
}

void BM_AlignmentGreedyOptimised(benchmark::State& state) {
  const auto boards = AcceptedBoards(state.range(0), 200);
  size_t next = 0;
  int64_t evaluations = 0, runs = 0;
  for (auto _ : state) {
    GreedyResult g = Greedy(boards[next++ % boards.size()]);
    evaluations += g.evaluations;
    ++runs;
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["evals_per_puzzle"] = static_cast<double>(evaluations) / static_cast<double>(runs);
}
BENCHMARK(BM_AlignmentGreedyOptimised)->ArgName(kShapeNames)->Arg(0)->Arg(1)->Arg(2);

void BM_AlignmentGreedyPlain(benchmark::State& state) {
  const auto boards = AcceptedBoards(state.range(0), 200);
  size_t next = 0;
  int64_t plain = 0, fast = 0, runs = 0;
  for (auto _ : state) {
    const Board& b = boards[next++ % boards.size()];
    int score = 0;
    plain += PlainGreedyEvaluations(b, &score);
    benchmark::DoNotOptimize(score);
    ++runs;
  }
  for (size_t i = 0; i < static_cast<size_t>(runs) && i < boards.size() * 4; ++i) {
    fast += Greedy(boards[i % boards.size()]).evaluations;
  }
  const auto counted = static_cast<double>(std::min<int64_t>(runs, boards.size() * 4));
  state.SetItemsProcessed(state.iterations());
  state.counters["evals_per_puzzle"] = static_cast<double>(plain) / static_cast<double>(runs);
  state.counters["optimised_evals"] = static_cast<double>(fast) / counted;
  state.counters["ratio"] = (static_cast<double>(plain) / static_cast<double>(runs)) /
                            (static_cast<double>(fast) / counted);
}
BENCHMARK(BM_AlignmentGreedyPlain)->ArgName(kShapeNames)->Arg(0)->Arg(1)->Arg(2);

void BM_AlignmentGenerate(benchmark::State& state) {
  int64_t exact = 0, greedy_optimal = 0;
  const int64_t accepted =
      bench::CandidateLoop(state, TheFamily(), ParamsFor(state.range(0)), kSeed, [&](Accepted& a) {
        const bool is_exact = a.difficulty.details["best_method"] == "exact";
        exact += is_exact;
        greedy_optimal += is_exact && a.difficulty.details["headroom"] == 0;
      });
  state.counters["accepted_per_s"] =
      benchmark::Counter(static_cast<double>(accepted), benchmark::Counter::kIsRate);
  // Shares are averaged over threads (counters are summed by default).
  const auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgThreads); };
  state.counters["accepted_ratio"] =
      avg(static_cast<double>(accepted) / static_cast<double>(state.iterations()));
  const double acc = static_cast<double>(std::max<int64_t>(accepted, 1));
  state.counters["exact_share"] = avg(static_cast<double>(exact) / acc);
  state.counters["greedy_optimal_share"] =
      avg(static_cast<double>(greedy_optimal) / static_cast<double>(std::max<int64_t>(exact, 1)));
}
BENCHMARK(BM_AlignmentGenerate)->ArgName(kShapeNames)->Arg(0)->Arg(1)->Arg(2)->UseRealTime();
BENCHMARK(BM_AlignmentGenerate)->ArgName(kShapeNames)->Arg(0)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace foundry::puzzles::alignment
