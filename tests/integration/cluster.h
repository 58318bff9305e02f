// LocalCluster: a real foundry-coordinator and N real foundry-workers on
// 127.0.0.1 with ephemeral ports, for integration tests. Everything it starts
// is stopped by its destructor, pass or fail.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tests/integration/subprocess.h"

namespace foundry::testing {

// The directory of the binaries under test (build/bin).
std::string BinDir();
std::string Bin(const std::string& name);

class LocalCluster {
 public:
  // Starts a coordinator on `db_dir` (created when missing) and `workers`
  // workers with `threads` threads each. Logs go to `log_dir`.
  LocalCluster(const std::string& db_dir, const std::string& log_dir, int workers, int threads,
               double lease_seconds = 2.0, std::vector<std::string> coordinator_args = {});
  ~LocalCluster();

  // True when the coordinator and every worker started.
  bool ok() const { return port_ > 0; }
  // "127.0.0.1:<port>".
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int metrics_port() const { return metrics_port_; }
  Subprocess& coordinator() { return *coordinator_; }
  Subprocess& worker(size_t i) { return *workers_.at(i); }
  // Starts one more worker ("test-worker-<index>", plus `extra_args`);
  // returns its index.
  size_t AddWorker(int threads, const std::vector<std::string>& extra_args = {});
  // kill -9 of worker `i`; waits until it is gone.
  void KillWorker(size_t i);
  // kill -9 of the coordinator, then a new one on the same port and store.
  // Returns false when the new one did not come up.
  bool CrashAndRestartCoordinator();
  // Stops every process gracefully (SIGTERM) and returns true when all
  // exited with code 0.
  bool StopAll();
  // Everything the coordinator logged.
  std::string CoordinatorLog() const { return coordinator_->Log(); }

 private:
  bool StartCoordinator(const std::string& listen);

  std::string db_dir_;
  double lease_seconds_;
  std::vector<std::string> coordinator_args_;
  int coordinator_starts_ = 0;
  std::string log_dir_;
  std::unique_ptr<Subprocess> coordinator_;
  std::vector<std::unique_ptr<Subprocess>> workers_;
  int port_ = 0;
  int metrics_port_ = 0;
};

}  // namespace foundry::testing
