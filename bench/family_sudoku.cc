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
const char* kLevelNames[] = {"easy", "medium", "hard", "expert"};

Params ParamsFor(std::map<std::string, std::string> raw) {
  return *sudoku::TheFamily().MakeParams(raw);
}

void BM_SudokuGenerate(benchmark::State& state) {
  const Family& family = sudoku::TheFamily();
  const auto shape = sudoku::SupportedShapes()[state.range(0)];
  state.SetLabel(shape.Name());
  const Params params = ParamsFor({{"box", shape.Name()}});
  uint64_t index = 0;
  int64_t levels[4] = {};
  for (auto _ : state) {
    Rng rng = CandidateRng(kSeed, index++);
    Candidate c = family.Generate(rng, params);
    if (auto* a = std::get_if<Accepted>(&c)) {
      for (int l = 0; l < 4; ++l) levels[l] += a->difficulty.level == kLevelNames[l];
    }
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  for (int l = 0; l < 4; ++l) {
    state.counters[kLevelNames[l]] =
        static_cast<double>(levels[l]) / static_cast<double>(state.iterations());
  }
}
// Shapes in SupportedShapes() order: 3x3, 2x2, 2x3, 3x4, 4x4.
BENCHMARK(BM_SudokuGenerate)->ArgName("box")->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_SudokuGenerateLevel(benchmark::State& state) {
  const Family& family = sudoku::TheFamily();
  const char* level = kLevelNames[state.range(0)];
  state.SetLabel(level);
  const Params params = ParamsFor({{"level", level}});
  uint64_t index = 0;
  int64_t accepted = 0;
  for (auto _ : state) {
    for (;;) {
      Rng rng = CandidateRng(kSeed, index++);
      Candidate c = family.Generate(rng, params);
      if (std::holds_alternative<Accepted>(c)) break;
    }
    ++accepted;
  }
  state.SetItemsProcessed(accepted);
  state.counters["candidates_per_puzzle"] =
      static_cast<double>(index) / static_cast<double>(accepted);
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
    for (uint64_t i = 0; v.size() < 64; ++i) {
      Rng rng = CandidateRng(7, i);
      Candidate c = sudoku::TheFamily().Generate(rng, params);
      if (auto* a = std::get_if<Accepted>(&c)) v.push_back(sudoku::ParsePuzzle(a->puzzle)->grid);
    }
    return v;
  }();
  return k;
}

void BM_SudokuSolveHard(benchmark::State& state) {
  const auto& set = HardSet();
  size_t next = 0;
  for (auto _ : state) {
    const int n = sudoku::CountSolutions({3, 3}, set[next++ % set.size()], 2);
    if (n != 1) state.SkipWithError("not unique");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuSolveHard)->Unit(benchmark::kMicrosecond);

void BM_SudokuBandHard(benchmark::State& state) {
  const auto& set = HardSet();
  size_t next = 0;
  for (auto _ : state) {
    const int n = sudoku::band::CountSolutions(set[next++ % set.size()].data(), 2);
    if (n != 1) state.SkipWithError("not unique");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuBandHard)->Unit(benchmark::kMicrosecond);

void BM_SudokuDlxHard(benchmark::State& state) {
  const auto& set = HardSet();
  size_t next = 0;
  for (auto _ : state) {
    const int n = sudoku::DlxCountSolutions({3, 3}, set[next++ % set.size()], 2);
    if (n != 1) state.SkipWithError("not unique");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuDlxHard)->Unit(benchmark::kMicrosecond);

std::vector<Accepted> Accepted9x9(int count) {
  std::vector<Accepted> out;
  const Params params = ParamsFor({});
  for (uint64_t i = 0; static_cast<int>(out.size()) < count; ++i) {
    Rng rng = CandidateRng(kSeed, i);
    Candidate c = sudoku::TheFamily().Generate(rng, params);
    if (auto* a = std::get_if<Accepted>(&c)) out.push_back(std::move(*a));
  }
  return out;
}

void BM_SudokuGrade(benchmark::State& state) {
  std::vector<sudoku::Grid> grids;
  for (const Accepted& a : Accepted9x9(256)) grids.push_back(sudoku::ParsePuzzle(a.puzzle)->grid);
  size_t next = 0;
  for (auto _ : state) {
    auto g = sudoku::GradePuzzle({3, 3}, grids[next++ % grids.size()]);
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuGrade)->Unit(benchmark::kMicrosecond);

void BM_SudokuVerify(benchmark::State& state) {
  const auto puzzles = Accepted9x9(256);
  size_t next = 0;
  for (auto _ : state) {
    const Accepted& a = puzzles[next++ % puzzles.size()];
    auto d = sudoku::TheFamily().Verify(a.puzzle, a.solution);
    if (!d.ok()) state.SkipWithError(d.status().ToString().c_str());
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SudokuVerify)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace foundry::puzzles
