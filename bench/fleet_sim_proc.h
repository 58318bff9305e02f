// fleet_sim's view of the coordinator process: start and stop it, read its
// CPU time and RSS from /proc, and scrape its Prometheus text.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace foundry::fleet_sim {

class CoordinatorProcess {
 public:
  // Starts `binary` --listen 127.0.0.1:0 --db DIR/db --metrics-listen
  // 127.0.0.1:0 `extra_args`, its stdout and stderr in DIR/coordinator.log,
  // and waits for its "listening on port" line. Empty `error` on success.
  static CoordinatorProcess Start(const std::string& binary, const std::string& dir,
                                  const std::vector<std::string>& extra_args, std::string* error);
  CoordinatorProcess() = default;
  CoordinatorProcess(CoordinatorProcess&& other) noexcept { *this = std::move(other); }
  CoordinatorProcess& operator=(CoordinatorProcess&& other) noexcept;
  ~CoordinatorProcess() { Stop(); }

  // SIGTERM, then SIGKILL after 10 s; idempotent.
  void Stop();

  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  int metrics_port() const { return metrics_port_; }
  const std::string& log_path() const { return log_; }

  // utime + stime of the whole process, seconds.
  double CpuSeconds() const;
  // VmRSS, MiB.
  double RssMb() const;
  // GET /metrics; "" on failure.
  std::string Metrics() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int metrics_port_ = 0;
  std::string log_;
};

// CPU time every core of the machine spent busy (not idle or waiting for
// I/O) since boot, seconds: what the others on a shared machine take.
double MachineBusySeconds();

// The pid fleet_sim's signal handler kills on SIGINT/SIGTERM (-1: none).
void SetChildToKillOnSignal(pid_t pid);

// Prometheus text helpers. The value of the first sample of `name` whose
// labels contain `label_filter` ("" = any); 0 when absent.
double MetricValue(const std::string& text, const std::string& name,
                   const std::string& label_filter = "");
// The q-quantile of histogram `name`, interpolated within its buckets as
// PromQL's histogram_quantile does; -1 when it has no observations.
double HistogramQuantile(const std::string& text, const std::string& name, double q);

// Lines of `path` that contain any of `needles`, at most `max_lines`.
std::vector<std::string> GrepFile(const std::string& path, const std::vector<std::string>& needles,
                                  size_t max_lines);

}  // namespace foundry::fleet_sim
