#include "tests/integration/foundry_cli.h"

#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/integration/cluster.h"

namespace foundry::testing {
namespace {

// proto3 JSON prints 64-bit integers as strings.
uint64_t AsU64(const nlohmann::json& j) {
  if (j.is_string()) return std::stoull(j.get<std::string>());
  if (j.is_number()) return j.get<uint64_t>();
  return 0;
}

}  // namespace

std::vector<std::string> IdsOf(const std::string& jsonl) {
  std::vector<std::string> ids;
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("id")) {
      ADD_FAILURE() << "bad export line: " << line;
      continue;
    }
    ids.push_back(j["id"].get<std::string>());
  }
  return ids;
}

std::string SubmitCampaign(const std::string& address, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {Bin("foundry"), "campaign", "submit", "--coordinator", address};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = RunCommand(argv);
  const std::string marker = "submitted campaign ";
  const auto at = r.out.find(marker);
  if (r.exit_code != 0 || at == std::string::npos) {
    ADD_FAILURE() << "submit failed: " << r.out << r.err;
    return "";
  }
  return r.out.substr(at + marker.size(), 18);
}

CampaignView CampaignStatus(const std::string& address, const std::string& id) {
  auto r =
      RunCommand({Bin("foundry"), "campaign", "status", "--coordinator", address, id, "--json"},
                 std::chrono::seconds(30));
  CampaignView v;
  if (r.exit_code != 0) return v;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  if (j.is_discarded()) return v;
  v.state = j.value("state", "");
  if (j.contains("counters") && j["counters"].contains("stored"))
    v.stored = AsU64(j["counters"]["stored"]);
  if (j.contains("spec") && j["spec"].contains("count")) v.count = AsU64(j["spec"]["count"]);
  return v;
}

bool WaitUntilStored(const std::string& address, const std::string& id, uint64_t stored,
                     std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    const CampaignView v = CampaignStatus(address, id);
    if (v.stored >= stored) return true;
    if (!v.state.empty() && v.state != "CAMPAIGN_STATE_RUNNING") return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

CommandResult WatchCampaign(const std::string& address, const std::string& id) {
  return RunCommand({Bin("foundry"), "campaign", "watch", "--coordinator", address, id});
}

std::vector<std::string> ExportedIds(const std::string& address_or_dir, bool db) {
  auto r = RunCommand({Bin("foundry"), "export", db ? "--db" : "--coordinator", address_or_dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return IdsOf(r.out);
}

namespace {

void RunEmbedded(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {Bin("foundry"), "run", "--db", dir, "--threads", "1", "--quiet"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = RunCommand(argv);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace

std::vector<std::string> EmbeddedIds(const std::string& dir, const std::vector<std::string>& args) {
  RunEmbedded(dir, args);
  return ExportedIds(dir, /*db=*/true);
}

std::vector<std::string> EmbeddedLines(const std::string& dir,
                                       const std::vector<std::string>& args) {
  RunEmbedded(dir, args);
  auto r = RunCommand({Bin("foundry"), "export", "--db", dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

double ScrapeMetric(int port, const std::string& name) {
  const auto page =
      RunCommand({"/usr/bin/curl", "-sf", "http://127.0.0.1:" + std::to_string(port) + "/metrics"});
  const auto at = page.out.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(page.out.substr(at + name.size() + 2));
}

}  // namespace foundry::testing
