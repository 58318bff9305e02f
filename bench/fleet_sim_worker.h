// fleet_sim's simulated worker: LeaseLoop's protocol without its work.
//
// Lease (with the generation fingerprint); for the simulated work time a
// heartbeat at the job's heartbeat_interval_ms; then SubmitResults with the
// captured chunks an honest worker would send; when there is no job, wait
// retry_after_ms. Each worker is a chain of gRPC callbacks and alarms, not a
// thread: 1,000 threads blocking in sync stubs cost fleet_sim ~290 µs of
// CPU per Lease (a core at N=1000, measured), CPU the coordinator under test
// then lacked on a 2-core machine.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <grpcpp/alarm.h>
#include <grpcpp/grpcpp.h>

#include "bench/fleet_sim_capture.h"
#include "foundry/v1/worker.grpc.pb.h"

namespace foundry::fleet_sim {

using Clock = std::chrono::steady_clock;

// One call: when it started (µs after the fleet's epoch) and how long it took.
struct Call {
  int64_t start_us;
  uint32_t us;
};

// One simulated worker's record. Its callbacks run one at a time (each is
// started by the previous one), so it needs no lock.
struct WorkerRecord {
  std::vector<Call> lease, beat, submit;
  // (job seq, end of its accepted submission in µs after the epoch).
  std::vector<std::pair<uint64_t, int64_t>> accepted;
  uint64_t errors = 0, abandoned = 0, repeated = 0, refused = 0;
  std::string first_error;
};

// What all the workers of one run share.
struct Fleet {
  double work_ms = 0;
  FamilyCapture* capture = nullptr;
  std::string fingerprint;
  Clock::time_point epoch = Clock::now();
  std::atomic<bool> stop{false};
  std::atomic<int> leased_once{0};  // workers that have asked for a job once

  int64_t Us(Clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::microseconds>(t - epoch).count();
  }
  void Started() {
    std::lock_guard lock(mu_);
    ++running_;
  }
  void Finished();
  // Raises stop and waits until every worker has seen it.
  void StopAndWait();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int running_ = 0;
};

class SimWorker {
 public:
  SimWorker(Fleet& fleet, foundry::v1::WorkerService::Stub& stub, std::string id,
            WorkerRecord& rec);
  void Start();

 private:
  void Lease();
  void OnLease(const grpc::Status& s);
  void Tick();
  void OnBeat(const grpc::Status& s);
  void Submit(int attempt);
  void OnSubmitted(const grpc::Status& s, bool accepted, int attempt);
  // Runs `then` at `t` (at once when `t` has passed).
  void At(Clock::time_point t, std::function<void()> then);
  void Fail(const std::string& what);
  void Record(std::vector<Call>& calls);

  Fleet& fleet_;
  foundry::v1::WorkerService::Stub& stub_;
  const std::string id_;
  WorkerRecord& rec_;
  foundry::v1::LeaseRequest lease_req_;
  foundry::v1::LeaseResponse lease_resp_;
  foundry::v1::HeartbeatRequest beat_req_;
  foundry::v1::HeartbeatResponse beat_resp_;
  std::vector<foundry::v1::ResultChunk> chunks_;
  std::unique_ptr<grpc::ClientContext> ctx_;  // the unary call in flight
  std::unique_ptr<grpc::Alarm> alarm_;
  Clock::time_point t0_, end_, next_beat_;
  Clock::duration interval_{};
  bool counted_ = false;
};

// Calls of `field` over all records that started and ended in [from_us,
// to_us]: per second, and p50 / p99 in ms (-1 when there were none).
struct CallStats {
  double rate = 0, p50 = -1, p99 = -1;
};
CallStats Summarise(const std::vector<WorkerRecord>& recs, std::vector<Call> WorkerRecord::*field,
                    int64_t from_us, int64_t to_us);

// A 30 s deadline: a hung coordinator shows as errors, not a hung run.
void SetDeadline(grpc::ClientContext& ctx);

}  // namespace foundry::fleet_sim
