// store_load: a closed-loop load generator for foundry.v1.PuzzleStore.
//
// --streams calls are in flight at all times: each stream sends its next
// request as soon as the previous answer arrives (or, with --rate, at the
// next slot of a fixed schedule). It records every call that starts and ends
// inside the --seconds window after --warmup-seconds; latencies go to one
// vector per stream (one writer each, no locks on the hot path).
//
// It links only the generated protocol code and gRPC (not the store or the
// families): it measures the server as any client sees it. The defaults,
// the callback API with a connection per stream, gave the most Gets/s on 2
// cores (client and server sharing them): 15.4k/s against 11.5k/s for sync
// stubs on one shared channel, 8 streams (docs/benchmarks.md).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <grpcpp/alarm.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench/process_cpu.h"
#include "common/grpc_runtime.h"
#include "foundry/v1/store.grpc.pb.h"

namespace {

using Clock = std::chrono::steady_clock;
using Stub = foundry::v1::PuzzleStore::Stub;

// grpc.health.v1.Health/Check: the cheapest unary call the server answers,
// the floor any other call is compared with. Called through the generic
// stub: HealthCheckRequest{service: ""} encodes to no bytes, so no copy of
// health.proto is needed.
constexpr char kHealthCheck[] = "/grpc.health.v1.Health/Check";

Clock::duration Seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

struct Flags {
  std::string target;
  std::string rpc = "get";
  double seconds = 10;
  double warmup_seconds = 1;
  int streams = 8;
  std::string family;
  uint32_t sample_count = 1;
  uint32_t batch = 100;  // ids per GetPuzzles
  size_t pool = 50'000;
  double rate = 0;  // requests/s over all streams; 0 = as fast as the server answers
  std::string api = "callback";
  std::string channels = "own";
  bool json = false;
};

enum class Kind { kGet, kSample, kQuery, kHealth, kGetMany };

// SplitMix64 per stream, for ids and the mixed draw: no shared state.
struct Rng {
  uint64_t s;
  uint64_t operator()() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

// What every stream reads: the flags, the id pool and the measuring window.
struct Shared {
  explicit Shared(const Flags& f) : flags(f) {}
  const Flags& flags;
  std::vector<std::string> ids;
  Clock::time_point window_start;
  Clock::time_point window_end;
  std::atomic<bool> stop{false};

  Kind Pick(Rng& rng) const {
    if (flags.rpc == "get") return Kind::kGet;
    if (flags.rpc == "sample") return Kind::kSample;
    if (flags.rpc == "query") return Kind::kQuery;
    if (flags.rpc == "health") return Kind::kHealth;
    if (flags.rpc == "getmany") return Kind::kGetMany;
    // mixed: what a game server's traffic might look like — mostly reads of
    // known puzzles, some draws of new ones, a few listings.
    const uint64_t r = rng() % 100;
    return r < 80 ? Kind::kGet : r < 95 ? Kind::kSample : Kind::kQuery;
  }
};

// One stream's results. Written by one thread at a time only.
struct StreamStats {
  std::vector<uint32_t> latencies_us;  // microseconds: resolution enough for 0.01 ms figures
  uint64_t errors = 0;
  std::string first_error;
  Rng rng{0};

  void Record(const Shared& sh, Clock::time_point t0, Clock::time_point t1, const grpc::Status& s) {
    // Only calls wholly inside the window count, so that warm-up and the
    // tail after the stop do not dilute the rate.
    if (t0 < sh.window_start || t1 > sh.window_end) return;
    if (!s.ok()) {
      if (errors++ == 0) first_error = std::to_string(s.error_code()) + " " + s.error_message();
      return;
    }
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count();
    latencies_us.push_back(static_cast<uint32_t>(std::min<int64_t>(us, UINT32_MAX)));
  }
};

// The requests and responses one stream reuses for all its calls (no
// allocation per call beyond what protobuf and gRPC do themselves).
struct Messages {
  foundry::v1::GetPuzzleRequest get;
  foundry::v1::SampleRequest sample;
  foundry::v1::QueryRequest query;
  foundry::v1::Puzzle puzzle;
  foundry::v1::SampleResponse sampled;
  foundry::v1::QueryResponse page;
  foundry::v1::GetPuzzlesRequest many;
  foundry::v1::GetPuzzlesResponse many_found;
  grpc::Slice no_bytes{"", 0};
  grpc::ByteBuffer health_request{&no_bytes, 1};
  grpc::ByteBuffer health_response;

  explicit Messages(const Flags& f) {
    get.set_include_solution(false);
    sample.mutable_filter()->set_family(f.family);
    sample.set_count(f.sample_count);
    sample.set_include_solution(false);
    query.mutable_filter()->set_family(f.family);
    query.set_include_solution(false);  // page_size 0: the server's default page (100)
  }
  // The next call's kind, with its request ready.
  Kind Next(const Shared& sh, Rng& rng) {
    const Kind kind = sh.Pick(rng);
    if (kind == Kind::kGet) get.set_id(sh.ids[rng() % sh.ids.size()]);
    if (kind == Kind::kGetMany) {
      many.clear_ids();
      for (uint32_t i = 0; i < sh.flags.batch; ++i) many.add_ids(sh.ids[rng() % sh.ids.size()]);
    }
    return kind;
  }
};

void SetDeadline(grpc::ClientContext& ctx) {
  // A hung server shows up as DEADLINE_EXCEEDED errors, not as a hung run.
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
}

// Sync API: one thread per stream, each blocking in its call.
void SyncStream(Shared& sh, Stub& stub, grpc::GenericStub& generic, StreamStats& st) {
  Messages m(sh.flags);
  while (!sh.stop.load(std::memory_order_relaxed)) {
    const Kind kind = m.Next(sh, st.rng);
    grpc::ClientContext ctx;
    SetDeadline(ctx);
    const auto t0 = Clock::now();
    grpc::Status s;
    switch (kind) {
      case Kind::kGet:
        s = stub.GetPuzzle(&ctx, m.get, &m.puzzle);
        break;
      case Kind::kSample:
        s = stub.SamplePuzzles(&ctx, m.sample, &m.sampled);
        break;
      case Kind::kQuery:
        s = stub.QueryPuzzles(&ctx, m.query, &m.page);
        break;
      case Kind::kGetMany:
        s = stub.GetPuzzles(&ctx, m.many, &m.many_found);
        break;
      case Kind::kHealth: {
        std::promise<grpc::Status> done;
        generic.UnaryCall(&ctx, kHealthCheck, grpc::StubOptions(), &m.health_request,
                          &m.health_response, [&done](grpc::Status r) { done.set_value(r); });
        s = done.get_future().get();
        break;
      }
    }
    st.Record(sh, t0, Clock::now(), s);
  }
}

// Callback API: no thread of ours per stream; each completion, on a gRPC
// thread, records the call and starts the stream's next one — at once, or
// with --rate at the stream's next slot of the schedule (a gRPC alarm).
class CallbackStream {
 public:
  CallbackStream(Shared& sh, Stub& stub, grpc::GenericStub& generic, StreamStats& st,
                 std::function<void()> on_done)
      : sh_(sh),
        stub_(stub),
        generic_(generic),
        st_(st),
        m_(sh.flags),
        on_done_(std::move(on_done)) {}

  // With --rate stream i owns slots i, i + streams, i + 2 * streams, ...
  void Start(int index) {
    if (sh_.flags.rate <= 0) return Issue();
    period_ = Seconds(sh_.flags.streams / sh_.flags.rate);
    next_ = Clock::now() + period_ * index / sh_.flags.streams;
    Wait();
  }

 private:
  void Issue() {
    if (sh_.stop.load(std::memory_order_relaxed)) {
      on_done_();
      return;
    }
    const Kind kind = m_.Next(sh_, st_.rng);
    // A context serves one call; replacing it from inside the previous
    // call's callback is what gRPC's own callback benchmark client does.
    ctx_ = std::make_unique<grpc::ClientContext>();
    SetDeadline(*ctx_);
    t0_ = Clock::now();
    auto done = [this](grpc::Status s) {
      st_.Record(sh_, t0_, Clock::now(), s);
      if (period_ == Clock::duration::zero()) return Issue();
      next_ += period_;
      Wait();
    };
    switch (kind) {
      case Kind::kGet:
        stub_.async()->GetPuzzle(ctx_.get(), &m_.get, &m_.puzzle, done);
        break;
      case Kind::kSample:
        stub_.async()->SamplePuzzles(ctx_.get(), &m_.sample, &m_.sampled, done);
        break;
      case Kind::kQuery:
        stub_.async()->QueryPuzzles(ctx_.get(), &m_.query, &m_.page, done);
        break;
      case Kind::kGetMany:
        stub_.async()->GetPuzzles(ctx_.get(), &m_.many, &m_.many_found, done);
        break;
      case Kind::kHealth:
        generic_.UnaryCall(ctx_.get(), kHealthCheck, grpc::StubOptions(), &m_.health_request,
                           &m_.health_response, done);
        break;
    }
  }

  // Until next_. A stream behind its schedule (a late alarm, a slow
  // answer) starts at once and keeps the schedule, so it catches up and the
  // rate holds; a server slower than the rate is simply driven flat out.
  void Wait() {
    const auto now = Clock::now();
    if (next_ <= now) return Issue();
    // A fresh alarm each time; the one replaced fired a whole call ago.
    alarm_ = std::make_unique<grpc::Alarm>();
    alarm_->Set(std::chrono::system_clock::now() + (next_ - now), [this](bool) { Issue(); });
  }

  Shared& sh_;
  Stub& stub_;
  grpc::GenericStub& generic_;
  StreamStats& st_;
  Messages m_;
  std::function<void()> on_done_;
  std::unique_ptr<grpc::ClientContext> ctx_;
  std::unique_ptr<grpc::Alarm> alarm_;
  Clock::time_point t0_;
  Clock::duration period_{0};
  Clock::time_point next_;
};

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target, bool own_connection) {
  grpc::ChannelArguments args;
  // Channels with equal arguments share one TCP connection through gRPC's
  // global subchannel pool; a local pool gives each channel its own.
  if (own_connection) args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetMaxReceiveMessageSize(64 << 20);  // Sample/Query pages of up to 1,000 puzzles
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

// Real ids for Get, drawn with SamplePuzzles (1,000 a call): uniform over
// the store. An export's first ids would not do: scans walk ids in key
// order, so they would be one narrow key range whose blocks stay cached.
std::string CollectIds(Stub& stub, const Flags& f, std::vector<std::string>& ids) {
  foundry::v1::SampleRequest req;
  req.mutable_filter()->set_family(f.family);
  foundry::v1::SampleResponse resp;
  while (ids.size() < f.pool) {
    req.set_count(static_cast<uint32_t>(std::min<size_t>(1000, f.pool - ids.size())));
    grpc::ClientContext ctx;
    SetDeadline(ctx);
    grpc::Status s = stub.SamplePuzzles(&ctx, req, &resp);
    if (!s.ok()) return "sampling ids for the pool failed: " + s.error_message();
    if (resp.puzzles_size() == 0) {
      return "the store has no puzzles" + (f.family.empty() ? "" : " of family " + f.family);
    }
    for (const auto& p : resp.puzzles()) ids.push_back(p.id());
    // Fewer than asked: that was every matching puzzle; drawing again
    // would only repeat them.
    if (resp.puzzles_size() < static_cast<int>(req.count())) break;
  }
  return "";
}

double Percentile(const std::vector<uint32_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto n = static_cast<double>(sorted.size());
  const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(q * n));
  return sorted[i] / 1000.0;
}

int Run(const Flags& f) {
  const bool own = f.channels == "own";
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<Stub>> stubs;
  std::vector<std::unique_ptr<grpc::GenericStub>> generics;
  for (int i = 0; i < (own ? f.streams : 1); ++i) {
    channels.push_back(MakeChannel(f.target, own));
    const auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(5);
    if (!channels.back()->WaitForConnected(deadline)) {
      std::fprintf(stderr, "store_load: cannot connect to %s within 5 s\n", f.target.c_str());
      return 1;
    }
    stubs.push_back(foundry::v1::PuzzleStore::NewStub(channels.back()));
    generics.push_back(std::make_unique<grpc::GenericStub>(channels.back()));
  }
  Shared sh(f);
  if (f.rpc == "get" || f.rpc == "getmany" || f.rpc == "mixed") {
    if (std::string error = CollectIds(*stubs[0], f, sh.ids); !error.empty()) {
      std::fprintf(stderr, "store_load: %s\n", error.c_str());
      return 1;
    }
  }

  std::vector<StreamStats> stats(f.streams);
  for (int i = 0; i < f.streams; ++i) stats[i].rng.s = 0x5EED0000ULL + static_cast<uint64_t>(i);
  sh.window_start = Clock::now() + Seconds(f.warmup_seconds);
  sh.window_end = sh.window_start + Seconds(f.seconds);

  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<CallbackStream>> callbacks;
  std::mutex mu;
  std::condition_variable cv;
  int running = f.streams;
  auto stream_done = [&] {
    std::lock_guard lock(mu);
    if (--running == 0) cv.notify_all();
  };
  for (int i = 0; i < f.streams; ++i) {
    Stub* stub = stubs[own ? i : 0].get();
    grpc::GenericStub* generic = generics[own ? i : 0].get();
    if (f.api == "sync") {
      threads.emplace_back(
          [&sh, &stats, stub, generic, i] { SyncStream(sh, *stub, *generic, stats[i]); });
    } else {
      callbacks.push_back(
          std::make_unique<CallbackStream>(sh, *stub, *generic, stats[i], stream_done));
    }
  }
  for (size_t i = 0; i < callbacks.size(); ++i) callbacks[i]->Start(static_cast<int>(i));
  // Scripts that measure something else during the window wait for this line.
  std::this_thread::sleep_until(sh.window_start);
  std::fprintf(stderr, "store_load: measuring for %g s\n", f.seconds);
  const double cpu0 = foundry::bench::ProcessCpuSeconds();
  std::this_thread::sleep_until(sh.window_end);
  const double cpu = foundry::bench::ProcessCpuSeconds() -
                     cpu0;  // ours over the window: what the load costs its machine
  sh.stop = true;
  for (auto& t : threads) t.join();
  if (!callbacks.empty()) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return running == 0; });
  }

  std::vector<uint32_t> all;  // merged, sorted once: exact percentiles
  uint64_t errors = 0;
  std::string first_error;
  for (auto& st : stats) {
    all.insert(all.end(), st.latencies_us.begin(), st.latencies_us.end());
    errors += st.errors;
    if (first_error.empty()) first_error = st.first_error;
  }
  std::sort(all.begin(), all.end());
  const double n = static_cast<double>(all.size());
  const double rps = n / f.seconds;
  const double p50 = Percentile(all, 0.50), p90 = Percentile(all, 0.90);
  const double p99 = Percentile(all, 0.99), max = all.empty() ? 0 : all.back() / 1000.0;
  if (f.json) {
    nlohmann::json j = {{"rpc", f.rpc},
                        {"streams", f.streams},
                        {"api", f.api},
                        {"channels", f.channels},
                        {"seconds", f.seconds},
                        {"requests", all.size()},
                        {"errors", errors},
                        {"requests_per_s", rps},
                        {"p50_ms", p50},
                        {"p90_ms", p90},
                        {"p99_ms", p99},
                        {"max_ms", max},
                        {"family", f.family},
                        {"sample_count", f.sample_count},
                        {"rate", f.rate},
                        {"id_pool", sh.ids.size()},
                        {"client_cpu_us_per_request", n > 0 ? cpu * 1e6 / n : 0}};
    if (!first_error.empty()) j["first_error"] = first_error;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "| rpc | streams | requests | errors | requests/s | p50 ms | p90 ms | p99 ms |"
        " max ms |\n|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %s | %d | %zu | %llu | %.0f | %.3f | %.3f | %.3f | %.3f |\n", f.rpc.c_str(),
                f.streams, all.size(), static_cast<unsigned long long>(errors), rps, p50, p90, p99,
                max);
    if (!first_error.empty()) {
      std::fprintf(stderr, "store_load: first error: %s\n", first_error.c_str());
    }
  }
  return all.empty() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"store_load: load generator for the coordinator's PuzzleStore service"};
  Flags f;
  app.add_option("--target", f.target, "Coordinator address, HOST:PORT")->required();
  app.add_option("--rpc", f.rpc,
                 "get, getmany (GetPuzzles of --batch ids), sample, query (first page), health "
                 "(grpc.health.v1 Check: the floor of a unary call), or mixed (80% get, 15% "
                 "sample, 5% query)")
      ->check(CLI::IsMember({"get", "getmany", "sample", "query", "health", "mixed"}));
  app.add_option("--batch", f.batch, "Ids per GetPuzzles call (getmany)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--seconds", f.seconds, "Measured window")->check(CLI::Range(0.1, 3600.0));
  app.add_option("--warmup-seconds", f.warmup_seconds, "Load before the window, not measured")
      ->check(CLI::Range(0.0, 600.0));
  app.add_option("--streams", f.streams, "Calls in flight at once")->check(CLI::Range(1, 1024));
  app.add_option("--family", f.family, "Only puzzles of this family (sample, query, the get pool)");
  app.add_option("--sample-count", f.sample_count, "Puzzles per Sample call")
      ->check(CLI::Range(1, 1000));
  app.add_option("--pool", f.pool, "Ids sampled from the store for get to choose from")
      ->check(CLI::Range(1, 10'000'000));
  app.add_option("--rate", f.rate,
                 "Fixed total requests/s over all streams (callback api); 0 = flat out")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--api", f.api, "sync (a thread per stream) or callback (gRPC callback API)")
      ->check(CLI::IsMember({"sync", "callback"}));
  app.add_option("--channels", f.channels,
                 "shared (one connection) or own (a connection per stream)")
      ->check(CLI::IsMember({"shared", "own"}));
  app.add_flag("--json", f.json, "Print one JSON object instead of the table row");
  CLI11_PARSE(app, argc, argv);
  if (f.rate > 0 && f.api != "callback") {
    std::fprintf(stderr, "store_load: --rate needs --api callback\n");
    return 2;
  }
  return Run(f);
}
