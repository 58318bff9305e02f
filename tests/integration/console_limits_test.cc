// The console against slow and greedy clients, with raw sockets (not a
// browser, not an HTTP library): 200 sockets that trickle header lines do
// not stop it from answering within 1 s and hold no thread; they are cut off
// by the header deadline; bodies over 1 MiB are refused as soon as they pass
// it, chunked ones too, without the console growing; a body that stalls is
// cut off; HTTPS goes through the same gate.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cluster.h"

namespace foundry::testing {
namespace {

using Clock = std::chrono::steady_clock;

// A TCP connection to 127.0.0.1:port from `source` (any 127.x address is
// this machine's; the console counts connections per source address).
int Connect(int port, const char* source = "127.0.0.1") {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  ::inet_pton(AF_INET, source, &from.sin_addr);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// What the server sends until it closes, or until `timeout`.
std::string ReadAll(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto until = Clock::now() + timeout;
  char buf[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

class ConsoleLimitsTest : public ::testing::Test {
 protected:
  void StartConsole(std::vector<std::string> extra = {}) {
    cluster_ = std::make_unique<LocalCluster>(dir_.path() + "/db", dir_.path(), /*workers=*/0, 1);
    ASSERT_TRUE(cluster_->ok());
    std::vector<std::string> argv{Bin("foundry-console"),
                                  "--coordinator",
                                  cluster_->address(),
                                  "--listen",
                                  "127.0.0.1:0",
                                  "--poll-ms",
                                  "1000"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    console_ = std::make_unique<Subprocess>(argv, dir_.path() + "/console.log");
    port_ = WaitForNumberAfter(*console_, "://127.0.0.1:");  // http or https
    ASSERT_GT(port_, 0) << console_->Log();
  }

  std::string Host() const { return "Host: 127.0.0.1:" + std::to_string(port_) + "\r\n"; }

  // GET /api/session on a new connection from `source`: the answer, and how long it took.
  std::string Get(const char* source, std::chrono::milliseconds* took) {
    const auto start = Clock::now();
    const int fd = Connect(port_, source);
    if (fd < 0) return "";
    SendAll(fd, "GET /api/session HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n");
    std::string answer = ReadAll(fd, std::chrono::seconds(10));
    ::close(fd);
    *took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return answer;
  }

  TempDir dir_;
  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<Subprocess> console_;
  int port_ = 0;
};

TEST_F(ConsoleLimitsTest, TwoHundredTricklingSocketsDoNotStopIt) {
  // Limits high enough to let all 200 in: they trickle until the header
  // deadline (2 s) cuts them off.
  StartConsole({"--header-timeout-ms", "2000", "--max-connections-per-client", "200",
                "--max-connections", "400"});
  std::this_thread::sleep_for(std::chrono::seconds(1));  // its poller's threads are up
  const long threads_before = ProcStatus(console_->pid(), "Threads");
  // 200 sockets, half from the legitimate client's own address: each sends
  // a request line, then a header line every 1-4 s, and reconnects
  // whenever the console drops it or answers (408).
  struct Slow {
    int fd = -1;
    const char* source;
    Clock::time_point next;
  };
  std::mt19937 rng(7);
  auto interval = [&] { return std::chrono::milliseconds(1000 + rng() % 3000); };
  std::vector<Slow> slow(200);
  auto open = [&](Slow& s) {
    s.fd = Connect(port_, s.source);
    if (s.fd >= 0) {
      SendAll(s.fd, "GET /api/session HTTP/1.1\r\n" + Host());
      ::fcntl(s.fd, F_SETFL, O_NONBLOCK);
    }
    s.next = Clock::now() + interval();
  };
  for (size_t i = 0; i < slow.size(); ++i) {
    slow[i].source = i % 2 == 0 ? "127.0.0.1" : "127.0.0.2";
    open(slow[i]);
  }
  std::atomic<bool> done{false};
  std::atomic<int> timeouts{0}, dropped{0};
  std::thread trickle([&] {
    int line = 0;
    while (!done) {
      for (Slow& s : slow) {
        char buf[512];
        const ssize_t n = s.fd < 0 ? 0 : ::recv(s.fd, buf, sizeof buf, MSG_DONTWAIT);
        const bool ended = s.fd < 0 || n == 0 || (n < 0 && errno != EAGAIN);
        if (n > 0 &&
            std::string_view(buf, static_cast<size_t>(n)).find(" 408 ") != std::string_view::npos) {
          ++timeouts;
        } else if (ended) {
          ++dropped;
        }
        if (n > 0 || ended) {
          if (s.fd >= 0) ::close(s.fd);
          open(s);
        } else if (Clock::now() >= s.next) {
          const std::string header = "X-Trickle-" + std::to_string(++line) + ": a\r\n";
          ::send(s.fd, header.data(), header.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
          s.next = Clock::now() + interval();
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  // Meanwhile a legitimate client asks every 200 ms for 4 s, from the
  // attackers' address and from another.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<long> latencies;
  long threads_during = 0;
  const auto until = Clock::now() + std::chrono::seconds(4);
  for (int i = 0; Clock::now() < until; ++i) {
    std::chrono::milliseconds took{};
    const std::string answer = Get(i % 2 == 0 ? "127.0.0.1" : "127.0.0.3", &took);
    EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << "request " << i << ": " << answer;
    latencies.push_back(took.count());
    threads_during = std::max(threads_during, ProcStatus(console_->pid(), "Threads"));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  done = true;
  trickle.join();
  for (Slow& s : slow) {
    if (s.fd >= 0) ::close(s.fd);
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf(
      "200 trickling sockets: %zu requests, median %ld ms, max %ld ms; %d cut off by the "
      "header deadline (408), %d pushed out; console threads %ld before, %ld during\n",
      latencies.size(), latencies[latencies.size() / 2], latencies.back(), timeouts.load(),
      dropped.load(), threads_before, threads_during);
  // The target: within 1 s (they take milliseconds).
  EXPECT_LT(latencies.back(), 1000);
  // Slow sockets hold no thread: the gate reads them all on one.
  EXPECT_LE(threads_during, threads_before + 4);
  // The deadline ends the trickling ones (each 2 s after it began).
  EXPECT_GT(timeouts.load(), 0);
}

// Open sockets of `fds` the console has not closed.
int StillOpen(const std::vector<int>& fds) {
  int open = 0;
  for (int fd : fds) {
    char c;
    const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ++open;
  }
  return open;
}

TEST_F(ConsoleLimitsTest, AGreedyClientIsHeldToItsShareAndTheLongestWaitingGoFirst) {
  StartConsole({"--max-connections", "48", "--max-connections-per-client", "32"});
  auto open_many = [&](const char* source, int n) {
    std::vector<int> fds;
    for (int i = 0; i < n; ++i) {
      const int fd = Connect(port_, source);
      if (fd >= 0) SendAll(fd, "GET /api/session HTTP/1.1\r\n");  // and nothing more
      fds.push_back(fd);
    }
    return fds;
  };
  // 100 half-sent requests from one address: it keeps 32 (its newest).
  std::vector<int> greedy = open_many("127.0.0.2", 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(StillOpen(greedy), 32);
  EXPECT_EQ(StillOpen({greedy.begin(), greedy.begin() + 68}), 0);
  // A whole request from that same address is still answered, and so is
  // one from elsewhere.
  std::chrono::milliseconds took{};
  EXPECT_EQ(Get("127.0.0.2", &took).rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(Get("127.0.0.1", &took).rfind("HTTP/1.1 200", 0), 0u);
  // Another address fills the total (48): the longest waiting go first.
  std::vector<int> other = open_many("127.0.0.3", 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(StillOpen(other), 30);
  EXPECT_LE(StillOpen(greedy) + StillOpen(other), 48);
  EXPECT_EQ(Get("127.0.0.1", &took).rfind("HTTP/1.1 200", 0), 0u);
  for (int fd : greedy) ::close(fd);
  for (int fd : other) ::close(fd);
}

TEST_F(ConsoleLimitsTest, BodiesOverTheLimitAreRefusedAsTheyPassIt) {
  StartConsole({"--body-timeout-ms", "1500"});
  const long rss_before = ProcStatus(console_->pid(), "VmRSS");
  // 100 MB chunked, 64 KiB a chunk, read while it is sent: 413 after 1 MiB.
  {
    const int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    SendAll(fd, "POST /api/login HTTP/1.1\r\n" + Host() +
                    "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    const std::string chunk = "10000\r\n" + std::string(0x10000, 'a') + "\r\n";
    size_t sent = 0;
    std::string answer;
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
    while (sent < (100u << 20) && answer.empty()) {
      pollfd p{fd, POLLIN | POLLOUT, 0};
      ::poll(&p, 1, 2000);
      if (p.revents & POLLIN) {
        answer = ReadAll(fd, std::chrono::seconds(5));
        break;
      }
      if (!(p.revents & POLLOUT)) break;
      const ssize_t n = ::send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    if (answer.empty()) answer = ReadAll(fd, std::chrono::seconds(5));
    ::close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
    EXPECT_NE(answer.find("at most 1048576 bytes"), std::string::npos) << answer;
    // What was sent before the answer: 1 MiB and what the sockets buffer.
    EXPECT_LT(sent, 32u << 20) << sent;
    std::printf("chunked body refused after %zu bytes sent\n", sent);
  }
  // One chunk that announces more than the limit: refused before its data.
  {
    const int fd = Connect(port_);
    SendAll(fd, "POST /api/login HTTP/1.1\r\n" + Host() +
                    "Transfer-Encoding: chunked\r\n\r\n200000\r\n");
    const std::string answer = ReadAll(fd, std::chrono::seconds(5));
    ::close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  }
  // A Content-Length over the limit: refused at once, body unread.
  {
    const int fd = Connect(port_);
    SendAll(fd, "POST /api/login HTTP/1.1\r\n" + Host() + "Content-Length: 104857600\r\n\r\n");
    const std::string answer = ReadAll(fd, std::chrono::seconds(5));
    ::close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  }
  // A body that stalls: 408 after --body-timeout-ms.
  {
    const int fd = Connect(port_);
    SendAll(fd, "POST /api/login HTTP/1.1\r\n" + Host() + "Content-Length: 100\r\n\r\n{\"tok");
    const auto start = Clock::now();
    const std::string answer = ReadAll(fd, std::chrono::seconds(20));
    ::close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 408", 0), 0u) << answer;
    EXPECT_NE(answer.find("--body-timeout-ms"), std::string::npos) << answer;
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(1000));
  }
  const long rss_after = ProcStatus(console_->pid(), "VmRSS");
  std::printf("console RSS %ld MB before, %ld MB after\n", rss_before / 1024, rss_after / 1024);
  EXPECT_LT(rss_after - rss_before, 24L * 1024);
  // And it still answers.
  std::chrono::milliseconds took{};
  EXPECT_EQ(Get("127.0.0.1", &took).rfind("HTTP/1.1 200", 0), 0u);
}

TEST_F(ConsoleLimitsTest, HttpsGoesThroughTheSameGate) {
  const std::string d = dir_.path();
  ASSERT_EQ(RunCommand({"/bin/sh", "-c",
                        "cd '" + d +
                            "' && openssl req -x509 -newkey rsa:2048 -nodes -keyout c.key "
                            "-out c.pem -days 2 -subj /CN=localhost -addext "
                            "subjectAltName=IP:127.0.0.1 2>/dev/null"})
                .exit_code,
            0);
  StartConsole({"--https-cert", d + "/c.pem", "--https-key", d + "/c.key", "--require-login"});
  if (RunCommand({"/bin/sh", "-c", "command -v curl"}).exit_code != 0) GTEST_SKIP() << "no curl";
  const std::string url = "https://127.0.0.1:" + std::to_string(port_) + "/api/session";
  auto ok = RunCommand({"/bin/sh", "-c", "curl -sS --cacert '" + d + "/c.pem' " + url},
                       std::chrono::seconds(30));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("\"login_required\":true"), std::string::npos) << ok.out;
  // A chunked body over the limit is refused there too.
  const std::string upload =
      "head -c 2000000 /dev/zero | curl -sS -o /dev/null -w '%{http_code}' "
      "-H 'Transfer-Encoding: chunked' --data-binary @- --cacert '" +
      d + "/c.pem' " + url;
  auto big = RunCommand({"/bin/sh", "-c", upload}, std::chrono::seconds(30));
  EXPECT_EQ(big.out, "413") << "curl: " << big.err << "\nconsole: " << console_->Log();
}

}  // namespace
}  // namespace foundry::testing
