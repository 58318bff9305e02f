// players_load: the player calls at a fixed rate, for their cost against
// grpc.health.v1.Health/Check (bench/players_cost.sh; docs/players.md).
//
//   --rpc health    Health/Check, the floor of a unary call
//   --rpc get       GetPuzzle of a random puzzle of the pool, without its
//                   solution: a store read returning one puzzle, as
//                   NextPuzzle's answer is
//   --rpc next      NextPuzzle of a random player of --players (offset 0)
//   --rpc play      RecordPlay of a random player and a random puzzle of the
//                   pool, with a right or wrong answer (judged) and a new
//                   play_id: nearly always the player's first attempt, so
//                   the play is rated (the most a RecordPlay does)
//   --rpc populate  one judged play for each of --players players, flat
//                   out: the players a cost run needs in the store
// health, next and play send --rate calls/s for --seconds after
// --warmup-seconds, print "players_load: measuring" on stderr when the
// window opens (the script reads the coordinator's CPU then) and one JSON
// line at the end. The token, when needed, is FOUNDRY_TOKEN_FILE's.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "bench/player_sim_model.h"
#include "bench/process_cpu.h"
#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/registry.h"

namespace {

namespace v1 = foundry::v1;
namespace sim = foundry::bench::sim;
using Clock = std::chrono::steady_clock;

struct Flags {
  std::string target, family, rpc = "health", run = "cost";
  uint64_t players = 100000;
  size_t pool = 10000;
  double rate = 1000, seconds = 10, warmup_seconds = 1;
  int threads = 4;
};

struct Entry {
  std::string id;
  sim::Answers answers;
};

// Puzzles with their answers, drawn with SamplePuzzles (uniform over the
// store; ids in key order would be one narrow, cached key range).
std::string LoadPool(const Flags& f, const foundry::ClientSecurity& security,
                     v1::PuzzleStore::Stub& stub, std::vector<Entry>& pool) {
  auto family = foundry::puzzles::FindFamily(f.family);
  if (!family.ok()) return std::string(family.status().message());
  std::unordered_set<std::string> seen;
  v1::SampleRequest req;
  req.mutable_filter()->set_family(f.family);
  req.set_include_solution(true);
  for (int round = 0; pool.size() < f.pool && round < 1000; ++round) {
    req.set_count(static_cast<uint32_t>(std::min<size_t>(1000, f.pool - pool.size())));
    req.set_seed(static_cast<uint64_t>(round) + 1);
    grpc::ClientContext ctx;
    security.Apply(ctx);
    v1::SampleResponse resp;
    if (grpc::Status s = stub.SamplePuzzles(&ctx, req, &resp); !s.ok()) {
      return "SamplePuzzles: " + s.error_message();
    }
    if (resp.puzzles_size() == 0) return "the store has no puzzles of family " + f.family;
    for (const auto& p : resp.puzzles()) {
      if (!seen.insert(p.id()).second) continue;
      auto answers = sim::MakeAnswers(**family, nlohmann::json::parse(p.puzzle_json()),
                                      nlohmann::json::parse(p.solution_json()), pool.size());
      if (!answers.ok()) return p.id() + ": " + std::string(answers.status().message());
      pool.push_back({p.id(), std::move(*answers)});
    }
  }
  return "";
}

struct Stats {
  std::atomic<uint64_t> calls{0}, errors{0};
  std::mutex mu;
  std::string first_error;
  void Fail(const grpc::Status& s) {
    if (errors++ == 0) {
      std::lock_guard lock(mu);
      first_error = std::to_string(s.error_code()) + " " + s.error_message();
    }
  }
};

int Run(const Flags& f) {
  auto security = foundry::ClientSecurity::FromEnvironment();
  if (!security.ok()) {
    std::fprintf(stderr, "players_load: %s\n", std::string(security.status().message()).c_str());
    return 1;
  }
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int t = 0; t < f.threads; ++t) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(64 << 20);
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a connection per thread
    channels.push_back(security->Connect(f.target, args));
    if (!channels.back()->WaitForConnected(std::chrono::system_clock::now() +
                                           std::chrono::seconds(10))) {
      std::fprintf(stderr, "players_load: cannot connect to %s\n", f.target.c_str());
      return 1;
    }
  }
  std::vector<Entry> pool;
  if (f.rpc == "play" || f.rpc == "populate" || f.rpc == "get") {
    auto stub = v1::PuzzleStore::NewStub(channels[0]);
    if (std::string error = LoadPool(f, *security, *stub, pool); !error.empty()) {
      std::fprintf(stderr, "players_load: %s\n", error.c_str());
      return 1;
    }
  }

  Stats stats;
  const bool paced = f.rpc != "populate";
  // A paced run starts its schedule a little ahead, so that no thread is
  // behind it from the first slot.
  const auto start = Clock::now() + std::chrono::milliseconds(paced ? 200 : 0);
  const auto window_start =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(paced ? f.warmup_seconds : 0));
  const auto window_end = window_start + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(f.seconds));
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(f.threads / f.rate));
  std::atomic<uint64_t> next_player{0};

  // Thread t owns the slots t, t + T, ... of the schedule; a thread behind
  // its schedule calls at once and catches up, so the rate holds.
  auto work = [&](int t) {
    auto stub = v1::PuzzleStore::NewStub(channels[t]);
    grpc::GenericStub generic(channels[t]);
    grpc::Slice no_bytes("", 0);
    grpc::ByteBuffer health_request(&no_bytes, 1), health_response;
    uint64_t rng = sim::Mix(0xC057ULL + static_cast<uint64_t>(t));
    auto slot = start + period * t / f.threads;
    for (uint64_t k = 0;; ++k) {
      uint64_t player = 0;
      if (paced) {
        if (slot >= window_end) break;
        std::this_thread::sleep_until(slot);
        slot += period;
        player = sim::Mix(++rng) % f.players;
      } else if ((player = next_player++) >= f.players) {
        break;
      }
      const bool counted = !paced || (Clock::now() >= window_start);
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      security->Apply(ctx);
      grpc::Status s;
      if (f.rpc == "health") {
        std::promise<grpc::Status> done;
        generic.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(),
                          &health_request, &health_response,
                          [&done](grpc::Status r) { done.set_value(r); });
        s = done.get_future().get();
      } else if (f.rpc == "get") {
        v1::GetPuzzleRequest req;
        req.set_id(pool[sim::Mix(++rng) % pool.size()].id);
        v1::Puzzle resp;
        s = stub->GetPuzzle(&ctx, req, &resp);
      } else if (f.rpc == "next") {
        v1::NextPuzzleRequest req;
        req.set_player_id(fmt::format("{}-p{}", "cost", player));
        req.set_family(f.family);
        v1::Puzzle resp;
        s = stub->NextPuzzle(&ctx, req, &resp);
      } else {
        const Entry& e = pool[sim::Mix(++rng) % pool.size()];
        v1::RecordPlayRequest req;
        req.set_id(e.id);
        req.set_player_id(fmt::format("{}-p{}", "cost", player));
        req.set_answer(sim::Mix(++rng) % 2 ? e.answers.right : e.answers.wrong);
        req.set_play_id(fmt::format("{}-{}-{}", f.run, t, k));
        req.set_seconds(60);
        v1::RecordPlayResponse resp;
        s = stub->RecordPlay(&ctx, req, &resp);
      }
      if (!counted) continue;
      ++stats.calls;
      if (!s.ok()) stats.Fail(s);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < f.threads; ++t) threads.emplace_back(work, t);
  std::this_thread::sleep_until(window_start);
  std::fprintf(stderr, "players_load: measuring\n");
  const double cpu0 = foundry::bench::ProcessCpuSeconds();
  const auto t0 = Clock::now();
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const double cpu = foundry::bench::ProcessCpuSeconds() - cpu0;
  const auto n = static_cast<double>(stats.calls.load());
  std::printf(
      "{\"rpc\":\"%s\",\"calls\":%llu,\"errors\":%llu,\"seconds\":%.3f,\"calls_per_s\":%.1f,"
      "\"client_cpu_us_per_call\":%.1f}\n",
      f.rpc.c_str(), static_cast<unsigned long long>(stats.calls.load()),
      static_cast<unsigned long long>(stats.errors.load()), seconds, n / seconds,
      n > 0 ? cpu * 1e6 / n : 0);
  if (stats.errors > 0) {
    std::fprintf(stderr, "players_load: %llu errors, the first: %s\n",
                 static_cast<unsigned long long>(stats.errors.load()), stats.first_error.c_str());
  }
  return stats.errors == 0 && n > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"players_load: the player calls at a fixed rate (bench/players_cost.sh)"};
  Flags f;
  app.add_option("--target", f.target, "Coordinator address, HOST:PORT")->required();
  app.add_option("--rpc", f.rpc, "health, get, next, play or populate")
      ->check(CLI::IsMember({"health", "get", "next", "play", "populate"}));
  app.add_option("--family", f.family, "The family (next, play, populate)");
  app.add_option("--players", f.players, "Players cost-p0 .. cost-pN-1")
      ->check(CLI::Range(1, 100'000'000));
  app.add_option("--pool", f.pool, "Puzzles with answers for play and populate")
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--rate", f.rate, "Calls/s over all threads")->check(CLI::Range(1.0, 1e6));
  app.add_option("--seconds", f.seconds, "Measured window")->check(CLI::Range(0.1, 3600.0));
  app.add_option("--warmup-seconds", f.warmup_seconds, "Calls before the window, not measured")
      ->check(CLI::Range(0.0, 600.0));
  app.add_option("--threads", f.threads, "Calls in flight at most")->check(CLI::Range(1, 256));
  app.add_option("--run", f.run, "Prefix of play_ids: one per run on a store");
  CLI11_PARSE(app, argc, argv);
  if (f.rpc != "health" && f.family.empty()) {
    std::fprintf(stderr, "players_load: --rpc %s needs --family\n", f.rpc.c_str());
    return 2;
  }
  return Run(f);
}
