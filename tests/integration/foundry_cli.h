// Driving the real `foundry` command from integration tests.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "tests/integration/subprocess.h"

namespace foundry::testing {

// Ids of every line of a JSON Lines export (ADD_FAILURE on a bad line).
std::vector<std::string> IdsOf(const std::string& jsonl);

// `foundry campaign submit` without --watch; the campaign id, or "" (and
// ADD_FAILURE) when the command failed.
std::string SubmitCampaign(const std::string& address, const std::vector<std::string>& args);

struct CampaignView {
  std::string state;  // "CAMPAIGN_STATE_RUNNING", ...
  uint64_t stored = 0;
  uint64_t count = 0;
};

// `foundry campaign status --json`; state "" when the call failed.
CampaignView CampaignStatus(const std::string& address, const std::string& id);

// Polls until the campaign stored at least `stored` puzzles; false on timeout
// or when it ended first.
bool WaitUntilStored(const std::string& address, const std::string& id, uint64_t stored,
                     std::chrono::seconds timeout = std::chrono::seconds(120));

// `foundry campaign watch`: waits for the end; the command's result.
CommandResult WatchCampaign(const std::string& address, const std::string& id);

// Ids of every puzzle the coordinator (or a store directory, with db=true) holds.
std::vector<std::string> ExportedIds(const std::string& address_or_dir, bool db = false);

// Ids stored by `foundry run` (embedded, one thread) on a fresh store in `dir`
// with the generation flags `args`: the reference a distributed run of the
// same flags must reproduce.
std::vector<std::string> EmbeddedIds(const std::string& dir, const std::vector<std::string>& args);

// The JSON Lines `foundry export` prints of that store (the same `foundry
// run`), one string a puzzle.
std::vector<std::string> EmbeddedLines(const std::string& dir,
                                       const std::vector<std::string>& args);

// One counter or gauge (without labels) from a /metrics page on 127.0.0.1:`port`;
// -1 when the page or the metric is missing.
double ScrapeMetric(int port, const std::string& name);

}  // namespace foundry::testing
