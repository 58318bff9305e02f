#include "tests/integration/cluster.h"

namespace foundry::testing {

std::string BinDir() { return FOUNDRY_BIN_DIR; }
std::string Bin(const std::string& name) { return BinDir() + "/" + name; }

LocalCluster::LocalCluster(const std::string& db_dir, const std::string& log_dir, int workers,
                           int threads, double lease_seconds)
    : log_dir_(log_dir) {
  coordinator_ = std::make_unique<Subprocess>(
      std::vector<std::string>{Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db", db_dir,
                               "--metrics-listen", "127.0.0.1:0", "--lease-seconds",
                               std::to_string(lease_seconds)},
      log_dir + "/coordinator.log");
  const int port = WaitForNumberAfter(*coordinator_, "listening on port ");
  metrics_port_ = WaitForNumberAfter(*coordinator_, "metrics port ");
  if (port <= 0) return;
  port_ = port;
  for (int i = 0; i < workers; ++i) AddWorker(threads);
}

size_t LocalCluster::AddWorker(int threads) {
  const size_t i = workers_.size();
  workers_.push_back(std::make_unique<Subprocess>(
      std::vector<std::string>{Bin("foundry-worker"), "--coordinator", address(), "--threads",
                               std::to_string(threads), "--worker-id",
                               "test-worker-" + std::to_string(i), "--metrics-listen",
                               "127.0.0.1:0"},
      log_dir_ + "/worker-" + std::to_string(i) + ".log"));
  return i;
}

LocalCluster::~LocalCluster() { StopAll(); }

bool LocalCluster::StopAll() {
  bool clean = true;
  for (auto& w : workers_) {
    if (!w->running()) continue;
    auto code = w->Stop();
    clean = clean && code && *code == 0;
  }
  if (coordinator_ && coordinator_->running()) {
    auto code = coordinator_->Stop();
    clean = clean && code && *code == 0;
  }
  return clean;
}

}  // namespace foundry::testing
