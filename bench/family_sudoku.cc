// Single-thread throughput of the sudoku family:
//   BM_SudokuGenerate/box      Generate() calls per second, default params
//                              (minimal, any level), per box shape; counters
//                              give the share of each level.
//   BM_SudokuGenerateLevel     accepted puzzles per second when a level is
//                              asked for (rejections included in the time).
//   BM_SudokuSolveHard         the cell-mask solver (solver.h) counting to 2
//                              on a fixed set of hard 9x9 puzzles: famous ones
//                              plus expert puzzles of a fixed seed.
//   BM_SudokuBandHard          the 9x9 removal checker (band_solver.h), same.
//   BM_SudokuDlxHard           dancing links (dlx.h) on the same set.
//   BM_SudokuGrade, BM_SudokuVerify   the grader, and Family::Verify.
// FOUNDRY_SUDOKU_SET=FILE replaces the hard set by FILE's 9x9 puzzles (one
// 81-character line each; bench/sudoku_vs_qqwing.sh uses it to time both
// programs on the same puzzles).
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/family_bench.h"
#include "bench/verify_bench.h"

#include "puzzles/family.h"
#include "puzzles/rng.h"
#include "puzzles/sudoku/band_solver.h"
#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/dlx.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/solver.h"
#include "puzzles/sudoku/sudoku.h"

namespace foundry::puzzles {
namespace {

constexpr uint64_t kSeed = 42;

Params ParamsFor(std::map<std::string, std::string> raw) {
  return *sudoku::TheFamily().MakeParams(raw);
}

void BM_SudokuGenerate(benchmark::State& state) {
  const auto shape = sudoku::SupportedShapes()[state.range(0)];
  state.SetLabel(shape.Name());
  const Params params = ParamsFor({{"box", shape.Name()}});
  bench::LevelShares shares;
  bench::CandidateLoop(state, sudoku::TheFamily(), params, kSeed,
                       [&](const Accepted& a) { shares.Add(a); });
  shares.Report(state);
}
// Shapes in SupportedShapes() order: 3x3, 2x2, 2x3, 3x4, 4x4.
BENCHMARK(BM_SudokuGenerate)->ArgName("box")->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_SudokuGenerateLevel(benchmark::State& state) {
  const std::string level(kLevels[state.range(0)]);
  state.SetLabel(level);
  bench::AcceptedLoop(state, sudoku::TheFamily(), ParamsFor({{"level", level}}), kSeed);
}
BENCHMARK(BM_SudokuGenerateLevel)
    ->ArgName("level")
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMicrosecond);

const std::vector<sudoku::Grid>& HardSet() {
  static const std::vector<sudoku::Grid> k = [] {
    std::vector<sudoku::Grid> v;
    const sudoku::Shape s{3, 3};
    if (const char* file = std::getenv("FOUNDRY_SUDOKU_SET")) {
      std::ifstream in(file);
      for (std::string line; std::getline(in, line);) {
        auto g = sudoku::GridFromString(s, line);
        if (g.ok()) v.push_back(*g);
      }
      if (!v.empty()) return v;
    }
    for (const char* p : {
             "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
             "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
             "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
             "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
         }) {
      v.push_back(*sudoku::GridFromString(s, p));
    }
    const Params params = ParamsFor({{"level", "expert"}});
    for (const Accepted& a :
         foundry::bench::SampleAccepted(sudoku::TheFamily(), params, 7, 64 - v.size())) {
      v.push_back(sudoku::ParsePuzzle(a.puzzle)->grid);
    }
    return v;
  }();
  return k;
}

// Counts each puzzle of the hard set to 2 solutions with `count_solutions`
// (a grid to a count), round robin; items per second are puzzles.
template <typename CountSolutions>
void SolveHardLoop(benchmark::State& state, CountSolutions count_solutions) {
  const auto& set = HardSet();
  size_t next = 0;
  for (auto _ : state) {
    if (count_solutions(set[next++ % set.size()]) != 1) state.SkipWithError("not unique");
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_SudokuSolveHard(benchmark::State& state) {
  SolveHardLoop(state, [](const sudoku::Grid& g) { return sudoku::CountSolutions({3, 3}, g, 2); });
}
BENCHMARK(BM_SudokuSolveHard)->Unit(benchmark::kMicrosecond);

void BM_SudokuBandHard(benchmark::State& state) {
  SolveHardLoop(state,
                [](const sudoku::Grid& g) { return sudoku::band::CountSolutions(g.data(), 2); });
}
BENCHMARK(BM_SudokuBandHard)->Unit(benchmark::kMicrosecond);

void BM_SudokuDlxHard(benchmark::State& state) {
  SolveHardLoop(state, [](const sudoku::Grid& g) {
    return sudoku::DlxCountSolutions({3, 3}, g, 2);
  });
}
BENCHMARK(BM_SudokuDlxHard)->Unit(benchmark::kMicrosecond);

void BM_SudokuGrade(benchmark::State& state) {
  std::vector<sudoku::Grid> grids;
  for (const Accepted& a :
       foundry::bench::SampleAccepted(sudoku::TheFamily(), ParamsFor({}), kSeed, 256)) {
    grids.push_back(sudoku::ParsePuzzle(a.puzzle)->grid);
  }
  size_t next = 0;
  for (auto _ : state) {
    auto g = sudoku::GradePuzzle({3, 3}, grids[next++ % grids.size()]);
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuGrade)->Unit(benchmark::kMicrosecond);

void BM_SudokuVerify(benchmark::State& state) {
  foundry::bench::RunVerifyBenchmark(state, sudoku::TheFamily(), ParamsFor({}), kSeed, 256);
}
BENCHMARK(BM_SudokuVerify)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace foundry::puzzles
