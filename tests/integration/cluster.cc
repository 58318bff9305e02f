#include "tests/integration/cluster.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
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

namespace {

// Stops `p` (SIGTERM, then SIGKILL after 10 s); true when it exited 0. An
// unclean stop is told on stderr with the end of the process's log, so
// that a test failing on StopAll() says which process and why.
bool StopCleanly(Subprocess& p, const std::string& name) {
  const auto start = std::chrono::steady_clock::now();
  const std::optional<int> code = p.Stop();
  if (code && *code == 0) return true;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  const std::string log = p.Log();
  size_t from = log.size();
  for (int lines = 0; lines < 20 && from > 0; ++lines) {
    const size_t newline = log.rfind('\n', from - 1);
    from = newline == std::string::npos ? 0 : newline;
  }
  std::fprintf(
      stderr, "LocalCluster: %s stopped uncleanly after %lld ms (exit %d); its log ends:\n%s\n",
      name.c_str(), static_cast<long long>(ms), code ? *code : -1, log.substr(from).c_str());
  return false;
}

}  // namespace

bool LocalCluster::StopAll() {
  bool clean = true;
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!workers_[i]->running()) continue;
    clean = StopCleanly(*workers_[i], "worker " + std::to_string(i)) && clean;
  }
  if (coordinator_ && coordinator_->running()) {
    clean = StopCleanly(*coordinator_, "the coordinator") && clean;
  }
  return clean;
}

}  // namespace foundry::testing
