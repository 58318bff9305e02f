#include <fmt/format.h>

#include "cli/commands.h"
#include "common/campaign_bounds.h"
#include "coordinator/campaign_spec.h"
#include "puzzles/registry.h"

namespace foundry::cli {

void AddGenerationFlags(CLI::App& cmd, GenerationFlags& flags) {
  cmd.add_option("--family", flags.family, "Puzzle family (see `foundry families`)")->required();
  cmd.add_option("--count", flags.count, "Puzzles new to the store to generate (1..100000000)")
      ->required();
  cmd.add_option("--seed", flags.seed, "Campaign seed: same seed, params and store, same puzzles");
  cmd.add_option("--set", flags.sets, "Family parameter, key=value (repeatable)");
  cmd.add_option(
      "--level", flags.level,
      "Only puzzles of this level: easy|medium|hard|expert (any: all), for every family");
  cmd.add_option("--min-score", flags.min_score,
                 "Only puzzles whose difficulty score is at least this (0..1)");
  cmd.add_option("--max-score", flags.max_score,
                 "Only puzzles whose difficulty score is at most this (0..1)");
  cmd.add_option("--priority", flags.priority,
                 "Share of workers when campaigns compete: proportional to max(1, P) "
                 "(0..1000000)");
  cmd.add_option("--job-size", flags.job_size, "Candidates per job (0: automatic)");
}

Result<foundry::v1::CampaignSpec> ToSpec(const GenerationFlags& flags) {
  auto family = puzzles::FindFamily(flags.family);
  if (!family.ok()) return Status::InvalidArgument(family.status().message());
  foundry::v1::CampaignSpec spec;
  spec.set_family(flags.family);
  if (flags.count < 1 || static_cast<uint64_t>(flags.count) > kMaxCampaignCount) {
    return Status::InvalidArgument(
        fmt::format("--count must be 1..{}, got '{}'", kMaxCampaignCount, flags.count));
  }
  spec.set_count(static_cast<uint64_t>(flags.count));
  spec.set_seed(flags.seed);
  if (flags.priority < 0 || flags.priority > kMaxPriority) {
    return Status::InvalidArgument(
        fmt::format("--priority must be 0..{}, got '{}'", kMaxPriority, flags.priority));
  }
  spec.set_priority(flags.priority);
  spec.set_job_size(flags.job_size);
  std::map<std::string, std::string> raw;
  for (const auto& kv : flags.sets) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(fmt::format("--set expects key=value, got '{}'", kv));
    }
    const auto [it, added] = raw.try_emplace(kv.substr(0, eq), kv.substr(eq + 1));
    if (!added) {
      return Status::InvalidArgument(fmt::format("--set {} is given twice ('{}={}' and '{}')",
                                                 it->first, it->first, it->second, kv));
    }
  }
  for (const auto& [k, v] : raw) (*spec.mutable_params())[k] = v;
  spec.set_level(flags.level);
  if (flags.min_score) spec.set_min_score(*flags.min_score);
  if (flags.max_score) spec.set_max_score(*flags.max_score);
  auto params = coordinator::CampaignParams(**family, spec);
  if (!params.ok()) return params.status();
  return spec;
}

}  // namespace foundry::cli
