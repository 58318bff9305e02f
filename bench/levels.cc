// levels: every family × level at default parameters, on one thread, in one
// run (issue "Difficulty on demand"):
//   rate     puzzles/s when the campaign asks for the level (--level L),
//            over --seconds of generation, the generic filter included;
//   ÷ any    that rate over the family's any-level rate, same run;
//   share    the level's share of the accepted puzzles of an unfiltered
//            stream (the any-level run);
//   effort   median and quartiles of the family's effort measure
//            (bench/effort/), a figure the grade was not tuned to, over at
//            most --effort-sample puzzles of the level.
// Candidates are drawn as a campaign draws them (CandidateRng(seed, i)), and
// timed as thread CPU so that a busy machine does not lower the rates.
//
//   build/bin/levels [--family F ...] [--seconds 2] [--effort-sample 200]
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "bench/effort/effort.h"
#include "bench/process_cpu.h"
#include "puzzles/registry.h"

namespace {

using foundry::bench::ThreadCpuSeconds;
using foundry::puzzles::Accepted;
using foundry::puzzles::Candidate;
using foundry::puzzles::Family;
using foundry::puzzles::kLevels;

struct Run {
  double seconds = 0;
  uint64_t candidates = 0;
  uint64_t accepted = 0;
  std::map<std::string, uint64_t> levels;  // accepted puzzles by level
  std::vector<Accepted> sample;            // the first ones, for the effort measure
  double rate() const { return seconds > 0 ? static_cast<double>(accepted) / seconds : 0; }
};

// Generates for `budget` CPU seconds (at least one candidate) with `raw`
// params, keeping the first `keep` accepted puzzles.
Run Generate(const Family& family, const std::map<std::string, std::string>& raw, double budget,
             uint64_t seed, size_t keep) {
  Run run;
  auto params = family.MakeParams(raw);
  if (!params.ok()) {
    fmt::print(stderr, "levels: {}: {}\n", family.name(), params.status().ToString());
    return run;
  }
  const double start = ThreadCpuSeconds();
  do {
    for (int i = 0; i < 16; ++i) {
      foundry::puzzles::Rng rng = foundry::puzzles::CandidateRng(seed, run.candidates++);
      Candidate c = family.Generate(rng, *params);
      if (auto* a = std::get_if<Accepted>(&c)) {
        ++run.accepted;
        ++run.levels[a->difficulty.level];
        if (run.sample.size() < keep) run.sample.push_back(std::move(*a));
      }
    }
    run.seconds = ThreadCpuSeconds() - start;
  } while (run.seconds < budget);
  return run;
}

// "median [q1, q3]" of the effort of up to `sample` puzzles.
std::string EffortOf(const foundry::bench::EffortMeasure* m, const std::vector<Accepted>& puzzles,
                     size_t sample) {
  if (m == nullptr) return "no measure";
  std::vector<double> v;
  for (size_t i = 0; i < puzzles.size() && v.size() < sample; ++i) {
    auto e = m->measure(puzzles[i].puzzle, puzzles[i].solution);
    if (!e.ok()) return "error: " + e.status().message();
    v.push_back(*e);
  }
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
  };
  return fmt::format("{:.4g} [{:.4g}, {:.4g}] n={}", at(0.5), at(0.25), at(0.75), v.size());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Rate, share and effort of every family x level, one thread"};
  std::vector<std::string> families;
  double seconds = 2.0;
  size_t effort_sample = 200;
  uint64_t seed = 1;
  app.add_option("--family", families, "Only these families (default: all)");
  app.add_option("--seconds", seconds, "CPU seconds of generation per row");
  app.add_option("--effort-sample", effort_sample,
                 "Most puzzles per level whose effort is measured");
  app.add_option("--seed", seed, "Campaign seed");
  CLI11_PARSE(app, argc, argv);

  fmt::print(
      "| family | level | puzzles/s (1 core) | ÷ any level | share unfiltered | effort: median "
      "[q1, q3] |\n");
  fmt::print("|---|---|---|---|---|---|\n");
  int failures = 0;
  for (const Family* family : foundry::puzzles::AllFamilies()) {
    if (!families.empty() &&
        std::find(families.begin(), families.end(), family->name()) == families.end()) {
      continue;
    }
    const auto* measure = foundry::bench::FindEffort(family->name());
    // A short first run fills the family's lazily built tables, so that
    // their one-time cost lands in no row.
    Generate(*family, {}, std::min(0.2, seconds), seed + 1, 0);
    const Run any = Generate(*family, {}, seconds, seed, effort_sample);
    fmt::print("| {} | any | {:.0f} | 1 | 100% | {} |\n", family->name(), any.rate(),
               EffortOf(measure, any.sample, effort_sample));
    for (std::string_view level : kLevels) {
      const Run at =
          Generate(*family, {{"level", std::string(level)}}, seconds, seed, effort_sample);
      const double ratio = any.rate() > 0 ? at.rate() / any.rate() : 0;
      const auto it = any.levels.find(std::string(level));
      const double pct =
          any.accepted == 0 || it == any.levels.end()
              ? 0
              : 100.0 * static_cast<double>(it->second) / static_cast<double>(any.accepted);
      // The bar: >= 50 puzzles/s on one core and >= 5% of any level.
      const bool meets = at.rate() >= 50 && ratio >= 0.05;
      if (!meets) ++failures;
      fmt::print("| {} | {} | {:.1f}{} | {:.3f} | {:.1f}% | {} |\n", family->name(), level,
                 at.rate(), meets ? "" : " (below target)", ratio, pct,
                 EffortOf(measure, at.sample, effort_sample));
    }
    std::fflush(stdout);
  }
  fmt::print(
      "\n{} family x level rows below the target (>= 50/s and >= 5% of the any-level rate)\n",
      failures);
  return 0;
}
