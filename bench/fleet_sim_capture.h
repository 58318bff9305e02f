// fleet_sim's replay material: the genuine output of a campaign's jobs,
// computed once before the run by the worker's own code (JobExecutor::Run
// for a GENERATE job, JobExecutor::RunVerify over the claims and every index
// for what an honest verifier answers), so that simulated workers answer the
// coordinator exactly as real ones would while spending almost no CPU.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"
#include "worker/job_executor.h"

namespace foundry::fleet_sim {

// One job of the campaign, [seq * job_size, (seq + 1) * job_size).
struct CapturedJob {
  uint64_t seq = 0;
  uint64_t first = 0;
  uint64_t end = 0;
  // What JobExecutor::Run returned: claims in index order and the stats
  // (their `seconds` is replaced by the simulated work time at submission).
  std::vector<foundry::v1::GeneratedPuzzle> claims;
  foundry::v1::JobStats stats;
  // RunVerify's verdict on each claim, in the same order.
  std::vector<foundry::v1::PuzzleVerdict> verdicts;
  // RunVerify's re-generation of every index of the job, in index order.
  std::vector<foundry::v1::Regenerated> regenerated;
};

// The captured jobs of one campaign (family at default parameters, seed,
// job size).
class FamilyCapture {
 public:
  FamilyCapture(const puzzles::Family* family, uint64_t seed, uint64_t job_size, int threads);

  // Captures jobs 0, 1, ... until they hold `count` distinct accepted
  // puzzles (what a campaign of `count` on an empty store commits), then
  // `extra` more: the coordinator leases a little ahead of its cursor.
  void CaptureFor(uint64_t count, uint64_t extra);

  // Job `seq`; captured now if it lies beyond what CaptureFor covered (a
  // cost the run then pays in the simulator: see late_captures()).
  std::shared_ptr<const CapturedJob> Job(uint64_t seq);

  // The SubmitResults chunks an honest worker sends for `job`, as
  // LeaseLoop builds them (ChunkResults / ChunkVerifyResults).
  std::vector<foundry::v1::ResultChunk> GenerateAnswer(const foundry::v1::Job& job, double seconds);
  std::vector<foundry::v1::ResultChunk> VerifyAnswer(const foundry::v1::Job& job, double seconds);

  // The puzzles the campaign stores, one vector per job that adds some (the
  // batches of its commits), at most `count` in all.
  std::vector<std::vector<const foundry::v1::GeneratedPuzzle*>> StoredBatches(uint64_t count);

  const puzzles::Family& family() const { return *family_; }
  const std::string& params_json() const { return params_json_; }
  uint64_t job_size() const { return job_size_; }
  size_t jobs_captured();
  // Jobs captured during the run, and verdicts computed during the run
  // because a VERIFY job listed a puzzle unlike the captured one; both
  // should stay 0.
  uint64_t late_captures();
  uint64_t live_verdicts();
  double capture_seconds() const { return capture_seconds_; }

 private:
  std::shared_ptr<const CapturedJob> CaptureJob(uint64_t seq);

  const puzzles::Family* family_;
  puzzles::Params params_;
  std::string params_json_;
  uint64_t seed_;
  uint64_t job_size_;
  worker::JobExecutor executor_;
  double capture_seconds_ = 0;

  std::mutex mu_;  // guards the members below
  std::map<uint64_t, std::shared_ptr<const CapturedJob>> jobs_;
  uint64_t late_captures_ = 0;
  uint64_t live_verdicts_ = 0;
};

}  // namespace foundry::fleet_sim
