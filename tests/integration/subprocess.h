// Subprocess: a real child process for integration tests, always stopped.
//
// The destructor kills the process (SIGKILL) and reaps it if it is still
// running, so a failing test never leaves a server behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace foundry::testing {

class Subprocess {
 public:
  // Starts `argv[0]` with `argv`; stdout and stderr go to `log_path`.
  Subprocess(const std::vector<std::string>& argv, const std::string& log_path);
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  pid_t pid() const { return pid_; }
  // Sends `signal` (no-op when already reaped).
  void Signal(int signal);
  // Waits up to `timeout` for the exit; the exit code (128+signal when
  // killed), or nullopt on timeout.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL if it has not exited within `grace`.
  std::optional<int> Stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  bool running();
  // Everything the process wrote so far.
  std::string Log() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string log_path_;
};

// Runs a command to completion; its exit code and its stdout.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
CommandResult RunCommand(const std::vector<std::string>& argv,
                         std::chrono::milliseconds timeout = std::chrono::minutes(5));

// Waits until `log` of `p` contains a line matching "<prefix><number>" and
// returns the number, or -1 after `timeout`.
int WaitForNumberAfter(Subprocess& p, const std::string& prefix,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20));

// A numeric field of /proc/<pid>/status ("Threads", "VmRSS" in kB), or -1.
long ProcStatus(pid_t pid, const std::string& field);

// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace foundry::testing
