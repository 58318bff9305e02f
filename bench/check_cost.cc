// check_cost: what the fleet spends per stored puzzle on generating it and on
// checking it, per family at default parameters, on one thread, with the
// worker's own code (worker::JobExecutor):
//   generate  JobExecutor::Run over COUNT candidates (the generator's job);
//   verify    RunVerify of every accepted puzzle (the verify job's Verify of
//             each puzzle, which issue "A cluster that scales" asks of a
//             process other than the generator);
//   spot      RunVerify re-generating a sample of the indices at --rate (the
//             spot checks of a trusted worker, docs/operations.md);
// each as process CPU time (getrusage) per stored puzzle, and the checks as a
// share of generation. Probation re-generates every index: its cost is the
// generate column, for `--probation-jobs` jobs of each new worker.
//
//   build/bin/check_cost [--count N] [--rate 0.03] [--family F ...]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/process_cpu.h"
#include "puzzles/registry.h"
#include "worker/job_executor.h"

namespace {

template <typename F>
double CpuOf(F&& f) {
  const double start = foundry::bench::ProcessCpuSeconds();
  f();
  return foundry::bench::ProcessCpuSeconds() - start;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"check_cost: generation and check CPU per stored puzzle, per family"};
  uint64_t count = 20000;
  double rate = 0.03;
  std::vector<std::string> families;
  app.add_option("--count", count, "Candidates per family")->check(CLI::Range(100, 10'000'000));
  app.add_option("--rate", rate, "Share of indices a spot check re-generates")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--family", families, "Families (default: all)");
  CLI11_PARSE(app, argc, argv);

  foundry::worker::JobExecutor executor(1);
  const std::atomic<bool> never{false};
  std::printf("%-14s %9s %9s %12s %10s %10s %9s %9s\n", "family", "stored", "accept %",
              "generate µs", "verify µs", "spot µs", "verify %", "spot %");
  for (const foundry::puzzles::Family* family : foundry::puzzles::AllFamilies()) {
    if (!families.empty() &&
        std::find(families.begin(), families.end(), family->name()) == families.end()) {
      continue;
    }
    auto params = family->MakeParams(std::map<std::string, std::string>{});
    if (!params.ok()) {
      std::fprintf(stderr, "check_cost: %s: %s\n", std::string(family->name()).c_str(),
                   params.status().ToString().c_str());
      return 1;
    }
    foundry::worker::JobSpec job{family, *params, /*seed=*/1, 0, count};
    foundry::worker::JobOutput generated;
    const double gen = CpuOf([&] { generated = executor.Run(job, never); });
    const double stored = static_cast<double>(generated.puzzles.size());
    if (stored == 0) continue;

    foundry::worker::VerifySpec verify{family, *params, 1, generated.puzzles, {}};
    const double ver = CpuOf([&] { (void)executor.RunVerify(verify, never); });

    // The sample a trusted worker's job gets: `rate` of its indices, drawn
    // without replacement.
    foundry::worker::VerifySpec spot{family, *params, 1, {}, {}};
    std::mt19937_64 rng(7);
    for (uint64_t i = 0; i < count; ++i) {
      if (std::uniform_real_distribution<double>(0, 1)(rng) < rate) spot.regenerate.push_back(i);
    }
    const double sp = CpuOf([&] { (void)executor.RunVerify(spot, never); });

    std::printf("%-14s %9.0f %9.1f %12.1f %10.1f %10.1f %9.1f %9.1f\n",
                std::string(family->name()).c_str(), stored,
                100.0 * stored / static_cast<double>(count), gen / stored * 1e6, ver / stored * 1e6,
                sp / stored * 1e6, 100.0 * ver / gen, 100.0 * sp / gen);
  }
  return 0;
}
