#include "bench/fleet_sim_proc.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

namespace foundry::fleet_sim {
namespace {

std::atomic<pid_t> g_child{-1};

extern "C" void KillChildAndExit(int sig) {
  const pid_t pid = g_child.load();
  if (pid > 0) kill(pid, SIGKILL);
  _exit(128 + sig);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

void SetChildToKillOnSignal(pid_t pid) {
  static bool installed = false;
  if (!installed) {
    signal(SIGINT, KillChildAndExit);
    signal(SIGTERM, KillChildAndExit);
    installed = true;
  }
  g_child = pid;
}

CoordinatorProcess CoordinatorProcess::Start(const std::string& binary, const std::string& dir,
                                             const std::vector<std::string>& extra_args,
                                             std::string* error) {
  CoordinatorProcess p;
  p.log_ = dir + "/coordinator.log";
  std::vector<std::string> args = {binary,      "--listen",         "127.0.0.1:0", "--db",
                                   dir + "/db", "--metrics-listen", "127.0.0.1:0"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int fd = open(p.log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = "cannot create " + p.log_;
    return p;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec. The coordinator
    // dies with us, whatever way we end.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fd);
  if (pid < 0) {
    *error = "fork failed";
    return p;
  }
  p.pid_ = pid;
  SetChildToKillOnSignal(pid);
  for (int i = 0; i < 600; ++i) {  // 60 s: a large store's open is slow
    const std::string log = ReadFile(p.log_);
    if (auto at = log.find("listening on port "); at != std::string::npos) {
      if (sscanf(log.c_str() + at, "listening on port %d metrics port %d", &p.port_,
                 &p.metrics_port_) == 2) {
        return p;
      }
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      p.pid_ = -1;
      *error = "the coordinator exited at start:\n" + log;
      return p;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  *error = "the coordinator printed no listening line within 60 s";
  return p;
}

CoordinatorProcess& CoordinatorProcess::operator=(CoordinatorProcess&& other) noexcept {
  if (this != &other) {
    Stop();
    pid_ = std::exchange(other.pid_, -1);
    port_ = other.port_;
    metrics_port_ = other.metrics_port_;
    log_ = std::move(other.log_);
  }
  return *this;
}

void CoordinatorProcess::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = waitpid(pid_, &status, WNOHANG) == pid_;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!gone) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  SetChildToKillOnSignal(-1);
}

double CoordinatorProcess::CpuSeconds() const {
  // Fields 14 and 15 (utime, stime) in clock ticks; the command name (field
  // 2) may hold spaces, so count from the closing parenthesis.
  const std::string stat = ReadFile("/proc/" + std::to_string(pid_) + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i >= 14) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double MachineBusySeconds() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  return (user + nice + system + irq + softirq + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double CoordinatorProcess::RssMb() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

std::string CoordinatorProcess::Metrics() const {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(metrics_port_));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    // HTTP/1.0: the server closes the connection after the body, no chunking.
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(s, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buf[65536];
      for (ssize_t n; (n = read(s, buf, sizeof buf)) > 0;)
        response.append(buf, static_cast<size_t>(n));
    }
  }
  close(s);
  const auto body = response.find("\r\n\r\n");
  return body == std::string::npos ? "" : response.substr(body + 4);
}

double MetricValue(const std::string& text, const std::string& name,
                   const std::string& label_filter) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind(name, 0) != 0) continue;
    const char next = line.size() > name.size() ? line[name.size()] : '\0';
    if (next != ' ' && next != '{') continue;
    const auto space = line.rfind(' ');
    if (!label_filter.empty() && line.substr(0, space).find(label_filter) == std::string::npos)
      continue;
    return std::stod(line.substr(space + 1));
  }
  return 0;
}

double HistogramQuantile(const std::string& text, const std::string& name, double q) {
  std::vector<std::pair<double, double>> buckets;  // (upper bound, cumulative count)
  std::istringstream in(text);
  std::string line;
  const std::string prefix = name + "_bucket{";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto le = line.find("le=\"");
    if (le == std::string::npos) continue;
    const std::string bound = line.substr(le + 4, line.find('"', le + 4) - le - 4);
    const double upper = bound == "+Inf" ? INFINITY : std::stod(bound);
    buckets.emplace_back(upper, std::stod(line.substr(line.rfind(' ') + 1)));
  }
  std::sort(buckets.begin(), buckets.end());
  if (buckets.empty() || buckets.back().second <= 0) return -1;
  const double rank = q * buckets.back().second;
  double lower = 0, below = 0;
  for (const auto& [upper, cumulative] : buckets) {
    if (cumulative >= rank) {
      if (std::isinf(upper)) return lower;  // past the last finite bound: report it
      return lower + (upper - lower) * (rank - below) / std::max(cumulative - below, 1e-9);
    }
    lower = upper;
    below = cumulative;
  }
  return lower;
}

std::vector<std::string> GrepFile(const std::string& path, const std::vector<std::string>& needles,
                                  size_t max_lines) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (out.size() < max_lines && std::getline(in, line)) {
    for (const auto& n : needles) {
      if (line.find(n) != std::string::npos) {
        out.push_back(line);
        break;
      }
    }
  }
  return out;
}

}  // namespace foundry::fleet_sim
