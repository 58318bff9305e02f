#include "tests/integration/cluster.h"

#include <signal.h>

#include <thread>

namespace foundry::testing {

std::string BinDir() { return FOUNDRY_BIN_DIR; }
std::string Bin(const std::string& name) { return BinDir() + "/" + name; }

LocalCluster::LocalCluster(const std::string& db_dir, const std::string& log_dir, int workers,
                           int threads, double lease_seconds,
                           std::vector<std::string> coordinator_args)
    : db_dir_(db_dir),
      lease_seconds_(lease_seconds),
      coordinator_args_(std::move(coordinator_args)),
      log_dir_(log_dir) {
  if (!StartCoordinator("127.0.0.1:0")) return;
  for (int i = 0; i < workers; ++i) AddWorker(threads);
}

bool LocalCluster::StartCoordinator(const std::string& listen) {
  std::vector<std::string> argv{Bin("foundry-coordinator"),
                                "--listen",
                                listen,
                                "--db",
                                db_dir_,
                                "--metrics-listen",
                                "127.0.0.1:0",
                                "--lease-seconds",
                                std::to_string(lease_seconds_)};
  argv.insert(argv.end(), coordinator_args_.begin(), coordinator_args_.end());
  coordinator_ = std::make_unique<Subprocess>(
      argv, log_dir_ + "/coordinator-" + std::to_string(coordinator_starts_++) + ".log");
  const int port = WaitForNumberAfter(*coordinator_, "listening on port ");
  metrics_port_ = WaitForNumberAfter(*coordinator_, "metrics port ");
  if (port <= 0) return false;
  port_ = port;
  return true;
}

void LocalCluster::KillWorker(size_t i) {
  workers_.at(i)->Signal(SIGKILL);
  workers_.at(i)->Wait(std::chrono::seconds(10));
}

bool LocalCluster::CrashAndRestartCoordinator() {
  coordinator_->Signal(SIGKILL);
  coordinator_->Wait(std::chrono::seconds(10));
  // The same port, so that running workers find it again by themselves.
  const std::string listen = address();
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (StartCoordinator(listen)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

size_t LocalCluster::AddWorker(int threads, const std::vector<std::string>& extra_args) {
  const size_t i = workers_.size();
  std::vector<std::string> argv{Bin("foundry-worker"),
                                "--coordinator",
                                address(),
                                "--threads",
                                std::to_string(threads),
                                "--worker-id",
                                "test-worker-" + std::to_string(i),
                                "--metrics-listen",
                                "127.0.0.1:0"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  workers_.push_back(
      std::make_unique<Subprocess>(argv, log_dir_ + "/worker-" + std::to_string(i) + ".log"));
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
