// soak_client: a game server's traffic for bench/soak.sh, through faults.
//
// Until SIGTERM it loops: sample a puzzle, read it by id, and record a play
// of it with a play_id of its own ("<name>-<n>"). A call that fails (the
// coordinator killed, paused or restarting) is retried with the same
// play_id until it is acknowledged, re-reading --address-file between tries
// (the coordinator may come back on another port), so every play the client
// counts was recorded, and the store must hold each exactly once.
//
// Writes to --out, when it stops: one line "name acked replayed reads errors
// uncertain" (uncertain: plays given up 30 s after SIGTERM, unanswered)
// and, one per line, the wall-clock milliseconds of every 100 ms slot in
// which at least one call succeeded (bench/soak.sh finds the stalls in the
// gaps).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "common/grpc_runtime.h"
#include "foundry/v1/store.grpc.pb.h"

namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string ReadAddress(const std::string& file) {
  std::ifstream in(file);
  std::string address;
  std::getline(in, address);
  return address;
}

class Connection {
 public:
  explicit Connection(std::string address_file) : address_file_(std::move(address_file)) {}

  // The stub for the address the file names now (a new channel when it moved).
  foundry::v1::PuzzleStore::Stub* Stub() {
    const std::string address = ReadAddress(address_file_);
    if (address.empty()) return nullptr;
    if (address != address_ || !stub_) {
      address_ = address;
      stub_ = foundry::v1::PuzzleStore::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    }
    return stub_.get();
  }

 private:
  std::string address_file_;
  std::string address_;
  std::unique_ptr<foundry::v1::PuzzleStore::Stub> stub_;
};

std::unique_ptr<grpc::ClientContext> Context() {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return ctx;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();
  CLI::App app{"soak_client: reads and plays through faults (bench/soak.sh)"};
  std::string address_file, name = "reader", out;
  double pause_ms = 5;
  app.add_option("--address-file", address_file, "The coordinator's address file")->required();
  app.add_option("--name", name, "Prefix of this client's play ids");
  app.add_option("--out", out, "Where to write the summary and the live slots")->required();
  app.add_option("--pause-ms", pause_ms, "Pause between rounds");
  CLI11_PARSE(app, argc, argv);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);

  Connection conn(address_file);
  std::mt19937_64 rng(std::hash<std::string>{}(name));
  std::set<int64_t> live_slots;  // 100 ms slots with a successful call
  uint64_t acked = 0, replayed = 0, reads = 0, errors = 0, uncertain = 0, next_play = 0;
  auto ok = [&] { live_slots.insert(NowMs() / 100 * 100); };
  auto wait_a_little = [] { std::this_thread::sleep_for(std::chrono::milliseconds(100)); };

  while (!g_stop.load()) {
    foundry::v1::PuzzleStore::Stub* stub = conn.Stub();
    if (stub == nullptr) {
      wait_a_little();
      continue;
    }
    foundry::v1::SampleRequest sample;
    sample.set_count(1);
    foundry::v1::SampleResponse sampled;
    if (!stub->SamplePuzzles(Context().get(), sample, &sampled).ok()) {
      ++errors;
      wait_a_little();
      continue;
    }
    ok();
    if (sampled.puzzles_size() == 0) {  // nothing stored yet
      wait_a_little();
      continue;
    }
    foundry::v1::GetPuzzleRequest get;
    get.set_id(sampled.puzzles(0).id());
    foundry::v1::Puzzle puzzle;
    if (stub->GetPuzzle(Context().get(), get, &puzzle).ok()) {
      ++reads;
      ok();
    } else {
      ++errors;
    }
    // The play: retried with the same play_id until acknowledged.
    foundry::v1::RecordPlayRequest play;
    play.set_id(get.id());
    play.set_solved(rng() % 3 != 0);
    play.set_seconds(static_cast<double>(10 + rng() % 300));
    play.set_play_id(name + "-" + std::to_string(next_play++));
    int tries_after_stop = 0;
    for (;;) {
      foundry::v1::RecordPlayResponse response;
      foundry::v1::PuzzleStore::Stub* s = conn.Stub();
      grpc::Status status = s != nullptr ? s->RecordPlay(Context().get(), play, &response)
                                         : grpc::Status(grpc::StatusCode::UNAVAILABLE, "");
      if (status.ok()) {
        ++acked;
        if (response.replayed()) ++replayed;
        ok();
        break;
      }
      ++errors;
      if (g_stop.load() && ++tries_after_stop > 300) {  // 30 s: the coordinator is gone
        ++uncertain;
        break;
      }
      if (status.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
          status.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
        std::fprintf(stderr, "soak_client: %s refused: %s\n", play.play_id().c_str(),
                     status.error_message().c_str());
        break;  // the bench counts it as lost (acked stays short)
      }
      wait_a_little();  // even after SIGTERM: a play in flight is finished
    }
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(pause_ms * 1000)));
  }

  std::ofstream file(out);
  file << name << ' ' << acked << ' ' << replayed << ' ' << reads << ' ' << errors << ' '
       << uncertain << '\n';
  for (int64_t slot : live_slots) file << slot << '\n';
  std::printf("%s: %llu plays acknowledged (%llu replayed), %llu reads, %llu failed calls\n",
              name.c_str(), static_cast<unsigned long long>(acked),
              static_cast<unsigned long long>(replayed), static_cast<unsigned long long>(reads),
              static_cast<unsigned long long>(errors));
  return 0;
}
