// The dashboards and alert rules against a real Prometheus: a live
// coordinator and two workers run a campaign on 127.0.0.1, Prometheus 2.42
// (Debian's package, installed when missing and we may) scrapes them every
// second, and every PromQL expression of every dashboard panel and every
// alert rule is evaluated through the HTTP API.
//
// What fails the test:
//  - a dashboard expression that is invalid or returns no series;
//  - any metric name an expression (dashboard or alert) mentions that has no
//    series at all (catches a misspelt name even inside a condition);
//  - an alert rule that Prometheus did not load, whose evaluation reports an
//    error (rule health), or whose expression is invalid through the API;
//  - an alert whose `signal` annotation (the quantity the alert thresholds)
//    is not part of its expression, or returns no series. The alert
//    expressions themselves are conditions, empty on a healthy cluster, so
//    they are only required to be valid here; that each fires when it
//    should is checked by `promtool test rules deploy/prometheus/alerts_test.yml`
//    (scripts/check-deploy.sh);
//  - promtool check config (generated config), check rules (alerts.yml) or
//    check metrics (each process's /metrics) reporting a problem.
// Skipped, with the reason, when prometheus is missing and cannot be
// installed (not root and no password-less sudo, or apt-get failed).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/integration/cluster.h"

namespace foundry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kPrometheus[] = "/usr/bin/prometheus";
constexpr char kPromtool[] = "/usr/bin/promtool";
constexpr char kCurl[] = "/usr/bin/curl";

std::string SourceDir() { return FOUNDRY_SOURCE_DIR; }

bool Installed() { return access(kPrometheus, X_OK) == 0 && access(kPromtool, X_OK) == 0; }

// Installs Debian's prometheus when missing. False with `why` when it cannot.
bool EnsurePrometheus(std::string* why) {
  if (Installed()) return true;
  std::vector<std::string> prefix;
  if (geteuid() != 0) {
    if (access("/usr/bin/sudo", X_OK) != 0 ||
        RunCommand({"/usr/bin/sudo", "-n", "true"}).exit_code != 0) {
      *why =
          "prometheus is not installed, and installing it needs root or password-less sudo "
          "(apt-get install --no-install-recommends prometheus)";
      return false;
    }
    prefix = {"/usr/bin/sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"};
  } else {
    setenv("DEBIAN_FRONTEND", "noninteractive", 1);
  }
  auto apt = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = prefix;
    argv.push_back("/usr/bin/apt-get");
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCommand(argv, std::chrono::minutes(15));
  };
  const std::vector<std::string> install = {"-o",  "DPkg::Lock::Timeout=600", "install",   "-y",
                                            "-qq", "--no-install-recommends", "prometheus"};
  CommandResult r = apt(install);
  if (r.exit_code != 0) {
    apt({"-o", "DPkg::Lock::Timeout=600", "update", "-qq"});
    r = apt(install);
  }
  if (r.exit_code != 0 || !Installed()) {
    *why = "apt-get install prometheus failed: " + r.err.substr(0, 500);
    return false;
  }
  return true;
}

// A port that was free a moment ago on 127.0.0.1.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Strip(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }),
          s.end());
  return s;
}

// One PromQL expression to check, and where it comes from.
struct Expr {
  std::string where;
  std::string expr;
};

// Every targets[].expr of every panel (rows' nested panels included).
void CollectPanels(const json& panels, const std::string& dashboard, std::vector<Expr>* out) {
  for (const json& p : panels) {
    if (p.contains("panels")) CollectPanels(p["panels"], dashboard, out);
    if (!p.contains("targets")) continue;
    for (const json& t : p["targets"]) {
      if (!t.contains("expr")) continue;
      out->push_back({dashboard + " / " + p.value("title", "?") + " / " + t.value("refId", "?"),
                      t["expr"].get<std::string>()});
    }
  }
}

class Prometheus {
 public:
  explicit Prometheus(int port) : base_("http://127.0.0.1:" + std::to_string(port)) {}

  // GET path with url-encoded parameters; the parsed JSON, or null.
  json Get(const std::string& path,
           const std::vector<std::pair<std::string, std::string>>& params = {}) const {
    std::vector<std::string> argv = {kCurl, "-sS", "--max-time", "20", "-G", base_ + path};
    for (const auto& [k, v] : params) {
      argv.push_back("--data-urlencode");
      argv.push_back(k + "=" + v);
    }
    CommandResult r = RunCommand(argv, std::chrono::seconds(30));
    if (r.exit_code != 0) return nullptr;
    return json::parse(r.out, nullptr, false);
  }

  // An instant query at now.
  json Query(const std::string& expr) const { return Get("/api/v1/query", {{"query", expr}}); }

  // The number of series `expr` returns now, or -1 when the query failed.
  // `first` gets the first series' value (for the report).
  int CountSeries(const std::string& expr, std::string* error = nullptr,
                  std::string* first = nullptr) const {
    json r = Query(expr);
    if (r.is_discarded() || r.is_null() || r.value("status", "") != "success") {
      if (error) *error = r.is_object() ? r.value("error", "no answer") : "no answer";
      return -1;
    }
    const json& data = r["data"];
    if (data.value("resultType", "") == "scalar") {
      if (first) *first = data["result"][1].get<std::string>();
      return 1;
    }
    const json& result = data["result"];
    if (first && !result.empty() && result[0].contains("value")) {
      *first = result[0]["value"][1].get<std::string>();
    }
    return static_cast<int>(result.size());
  }

  bool Ready() const {
    return RunCommand({kCurl, "-sf", "--max-time", "2", base_ + "/-/ready"}).exit_code == 0;
  }

 private:
  std::string base_;
};

class PrometheusTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

TEST_F(PrometheusTest, EveryDashboardQueryAndAlertRuleAgainstALiveCluster) {
  std::string why;
  if (!EnsurePrometheus(&why)) GTEST_SKIP() << why;

  // The cluster: a coordinator and two one-thread workers, short leases.
  LocalCluster cluster(dir_.path() + "/db", dir_.path(), /*workers=*/2, /*threads=*/1);
  ASSERT_TRUE(cluster.ok()) << cluster.CoordinatorLog();
  const int coordinator_metrics = cluster.metrics_port();
  const int worker_metrics[2] = {WaitForNumberAfter(cluster.worker(0), "metrics on port "),
                                 WaitForNumberAfter(cluster.worker(1), "metrics on port ")};
  ASSERT_GT(coordinator_metrics, 0);
  ASSERT_GT(worker_metrics[0], 0) << cluster.worker(0).Log();
  ASSERT_GT(worker_metrics[1], 0) << cluster.worker(1).Log();

  // Prometheus on a free port, scraping every second, with our alert rules.
  const int port = FreePort();
  ASSERT_GT(port, 0);
  const std::string rules = SourceDir() + "/deploy/prometheus/alerts.yml";
  const std::string config = dir_.path() + "/prometheus.yml";
  {
    std::ofstream out(config);
    out << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
        << "rule_files:\n  - " << rules << "\n"
        << "scrape_configs:\n"
        << "  - job_name: foundry-coordinator\n    static_configs:\n      - targets: ['127.0.0.1:"
        << coordinator_metrics << "']\n"
        << "  - job_name: foundry-worker\n    static_configs:\n      - targets: ['127.0.0.1:"
        << worker_metrics[0] << "', '127.0.0.1:" << worker_metrics[1] << "']\n";
  }
  CommandResult check = RunCommand({kPromtool, "check", "config", config});
  ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
  check = RunCommand({kPromtool, "check", "rules", rules});
  ASSERT_EQ(check.exit_code, 0) << check.out << check.err;

  Subprocess prometheus(
      {kPrometheus, "--config.file=" + config, "--storage.tsdb.path=" + dir_.path() + "/tsdb",
       "--web.listen-address=127.0.0.1:" + std::to_string(port), "--log.level=warn"},
      dir_.path() + "/prometheus.log");
  Prometheus api(port);
  for (int i = 0; i < 300 && !api.Ready(); ++i) {
    ASSERT_TRUE(prometheus.running()) << prometheus.Log();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(api.Ready()) << prometheus.Log();

  // A campaign that runs well past the checks (two one-thread workers store
  // a few thousand secret-number puzzles a second; it is cancelled at the end).
  CommandResult submit =
      RunCommand({Bin("foundry"), "campaign", "submit", "--coordinator", cluster.address(),
                  "--family", "secret-number", "--count", "2000000", "--seed", "7"});
  ASSERT_EQ(submit.exit_code, 0) << submit.out << submit.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(submit.out, m, std::regex("c-[0-9a-f]+"))) << submit.out;
  const std::string campaign = m.str();

  // While Prometheus scrapes: store queries (QueryPuzzles/ExportPuzzles) and
  // a NOT_FOUND, so that the store dashboard has requests of both kinds.
  auto exercise_store = [&] {
    RunCommand({Bin("foundry"), "export", "--coordinator", cluster.address(), "--limit", "5"});
    RunCommand({Bin("foundry"), "campaign", "status", "--coordinator", cluster.address(),
                "c-0000000000000000"});
  };
  // Ready when every target is up, puzzles are being stored, the level counts
  // are exported, and at least 12 s (a dozen scrapes) have passed.
  const auto started = std::chrono::steady_clock::now();
  bool ready = false;
  for (int i = 0; i < 90 && !ready; ++i) {
    exercise_store();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    ready = api.CountSeries("up{job=~\"foundry-.*\"} == 1") == 3 &&
            api.CountSeries(
                "sum(rate(foundry_stored_total{job=\"foundry-coordinator\"}[1m])) > 0") == 1 &&
            api.CountSeries("foundry_store_puzzles_by_level") > 0 &&
            api.CountSeries("foundry_rpc_requests_total{service=\"foundry.v1.PuzzleStore\"}") > 0 &&
            std::chrono::steady_clock::now() - started > std::chrono::seconds(12);
  }
  ASSERT_TRUE(ready) << "Prometheus never saw the cluster at work\n"
                     << prometheus.Log() << cluster.CoordinatorLog();
  exercise_store();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  CommandResult status = RunCommand(
      {Bin("foundry"), "campaign", "status", "--coordinator", cluster.address(), campaign});
  ASSERT_NE(status.out.find("running"), std::string::npos)
      << "the campaign ended before the checks; panels of running campaigns would be empty:\n"
      << status.out;

  // ---- every dashboard panel ----
  std::vector<Expr> panels;
  std::vector<std::string> dashboards;
  for (const auto& entry : fs::directory_iterator(SourceDir() + "/dashboards")) {
    if (entry.path().extension() != ".json") continue;
    json d = json::parse(ReadText(entry.path().string()), nullptr, false);
    ASSERT_FALSE(d.is_discarded()) << entry.path() << " is not JSON";
    ASSERT_TRUE(d.contains("panels")) << entry.path();
    dashboards.push_back(entry.path().filename().string());
    CollectPanels(d["panels"], entry.path().filename().string(), &panels);
  }
  std::sort(dashboards.begin(), dashboards.end());
  EXPECT_EQ(dashboards, (std::vector<std::string>{"campaign.json", "store.json"}));
  EXPECT_GE(panels.size(), 30u);
  std::ostringstream report;
  for (const Expr& e : panels) {
    std::string error, first;
    const int n = api.CountSeries(e.expr, &error, &first);
    report << n << " series  " << e.where << " (first value " << first << ")\n    " << e.expr
           << "\n";
    EXPECT_GE(n, 0) << e.where << ": invalid: " << error << "\n  " << e.expr;
    EXPECT_GT(n, 0) << e.where << ": no series\n  " << e.expr;
  }

  // ---- every alert rule, as Prometheus loaded it ----
  json rules_api = api.Get("/api/v1/rules");
  ASSERT_TRUE(rules_api.is_object() && rules_api.value("status", "") == "success")
      << rules_api.dump();
  std::vector<Expr> alert_exprs;
  std::set<std::string> alert_names;
  for (const json& group : rules_api["data"]["groups"]) {
    for (const json& rule : group["rules"]) {
      const std::string name = rule.value("name", "?");
      const std::string query = rule.value("query", "");
      alert_names.insert(name);
      alert_exprs.push_back({"alert " + name, query});
      EXPECT_EQ(rule.value("health", ""), "ok") << name << ": " << rule.value("lastError", "");
      std::string error;
      const int n = api.CountSeries(query, &error);
      EXPECT_GE(n, 0) << name << ": invalid: " << error << "\n  " << query;
      report << n << " series  alert " << name << " (condition)\n    " << query << "\n";

      const std::string signal = rule["annotations"].value("signal", "");
      ASSERT_FALSE(signal.empty()) << name << " has no signal annotation";
      EXPECT_NE(Strip(query).find(Strip(signal)), std::string::npos)
          << name << ": the signal is not part of the expression\n  signal: " << signal
          << "\n  expr:   " << query;
      std::string first;
      const int s = api.CountSeries(signal, &error, &first);
      report << s << " series  alert " << name << " (signal, first value " << first << ")\n    "
             << signal << "\n";
      EXPECT_GT(s, 0) << name << ": signal returns no series (" << error << ")\n  " << signal;
    }
  }
  for (const char* required :
       {"FoundryNoLiveWorkers", "FoundryCampaignStalled", "FoundryAcceptanceRateCollapsed",
        "FoundryLeaseExpiriesSpiking", "FoundryStoreWriteStalls"}) {
    EXPECT_TRUE(alert_names.count(required)) << required << " is not loaded";
  }

  // ---- every metric name mentioned anywhere has series ----
  std::set<std::string> names;
  const std::regex name_re("\\b(foundry_[a-z0-9_]+|up)\\b(?![\"a-z0-9_])");
  for (const auto* list : {&panels, &alert_exprs}) {
    for (const Expr& e : *list) {
      for (auto it = std::sregex_iterator(e.expr.begin(), e.expr.end(), name_re);
           it != std::sregex_iterator(); ++it) {
        names.insert((*it)[1].str());
      }
    }
  }
  EXPECT_GE(names.size(), 25u);
  for (const std::string& name : names) {
    const int n = api.CountSeries("{__name__=\"" + name + "\"}");
    report << n << " series  metric " << name << "\n";
    EXPECT_GT(n, 0) << "no series of " << name;
  }

  // ---- promtool check metrics on each process's /metrics ----
  for (int p : {coordinator_metrics, worker_metrics[0], worker_metrics[1]}) {
    const std::string file = dir_.path() + "/metrics-" + std::to_string(p) + ".txt";
    CommandResult got = RunCommand(
        {kCurl, "-sf", "-o", file, "http://127.0.0.1:" + std::to_string(p) + "/metrics"});
    ASSERT_EQ(got.exit_code, 0) << got.err;
    CommandResult lint =
        RunCommand({"/bin/sh", "-c", std::string(kPromtool) + " check metrics < " + file});
    EXPECT_EQ(lint.exit_code, 0) << "port " << p << ":\n" << lint.out << lint.err;
    EXPECT_EQ(lint.out + lint.err, "") << "port " << p;
  }

  std::cout << "Checked " << panels.size() << " dashboard expressions, " << alert_exprs.size()
            << " alert rules and " << names.size() << " metric names:\n"
            << report.str();
  const std::string report_file = std::string(FOUNDRY_BINARY_DIR) + "/prometheus_test_report.txt";
  std::ofstream(report_file) << report.str();

  // Stop: the campaign, Prometheus, then the cluster (its destructor too).
  RunCommand({Bin("foundry"), "campaign", "cancel", "--coordinator", cluster.address(), campaign});
  prometheus.Stop();
  EXPECT_TRUE(cluster.StopAll()) << "a process did not exit cleanly";
}

}  // namespace
}  // namespace foundry::testing
