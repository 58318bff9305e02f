// The puzzle filter flags shared by export, sample and query-like commands.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "common/status.h"
#include "foundry/v1/store.pb.h"

namespace foundry::cli {

struct FilterFlags {
  std::string family, level, campaign;
  std::optional<double> min_score, max_score;
  bool observed = false;
  std::string created_after, created_before;  // ms since 1970, or a UTC date/time
};

// --family --level --campaign --min-score --max-score --observed
// --created-after --created-before.
void AddFilterFlags(CLI::App& cmd, FilterFlags& flags);

// The wire filter; InvalidArgument naming the bad flag.
Result<foundry::v1::PuzzleFilter> ToFilter(const FilterFlags& flags);

// Milliseconds since 1970 from "1700000000000", "2026-11-22" or
// "2026-11-22T10:30:00" (UTC, optional trailing Z). nullopt otherwise,
// and for a day its month does not have (2026-02-30).
std::optional<int64_t> ParseTime(const std::string& text);

}  // namespace foundry::cli
