// JobExecutor: runs one job's candidate range on a fixed number of threads.
//
// Candidate i is generated from CandidateRng(seed, i) alone and the accepted
// puzzles are returned in index order, so the output of a job is the same for
// any thread count (tests/unit/worker proves it).
//
// Thread safety: Run() and RunVerify() may be called from several threads at
// once. Their blocks share the executor's `threads` threads (a oneTBB arena
// of its own workers; the callers wait without computing), so the process
// never computes on more than `threads` cores, and one job's last blocks do
// not leave threads idle while another job waits.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <semaphore>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"

namespace foundry::worker {

// What to run: everything the output depends on.
struct JobSpec {
  const puzzles::Family* family = nullptr;  // not owned; lives forever (registry)
  puzzles::Params params;
  uint64_t seed = 0;
  uint64_t first_index = 0;
  uint64_t end_index = 0;  // exclusive
};

struct JobOutput {
  // Accepted candidates with this worker's claims (id, grade), in increasing
  // index order.
  std::vector<foundry::v1::GeneratedPuzzle> puzzles;
  foundry::v1::JobStats stats;
  // True when `cancel` was raised before the job finished; the rest of the
  // output is then incomplete and must not be submitted.
  bool cancelled = false;
};

// A verification job: another worker's output to check.
struct VerifySpec {
  const puzzles::Family* family = nullptr;  // not owned; lives forever (registry)
  puzzles::Params params;
  uint64_t seed = 0;
  // The puzzles to Verify (their id and difficulty fields are ignored).
  std::vector<foundry::v1::GeneratedPuzzle> puzzles;
  // The candidate indices to re-generate.
  std::vector<uint64_t> regenerate;
};

struct VerifyOutput {
  // One per spec puzzle and one per spec index, in the spec's order.
  std::vector<foundry::v1::PuzzleVerdict> verdicts;
  std::vector<foundry::v1::Regenerated> regenerated;
  foundry::v1::JobStats stats;  // candidates = regenerated, accepted = valid verdicts
  bool cancelled = false;
};

class JobExecutor {
 public:
  // REQUIRES: threads >= 1.
  explicit JobExecutor(int threads);

  int threads() const { return threads_; }

  // Generates candidates [first_index, end_index) of `spec`. Polls `cancel`
  // between blocks of candidates.
  JobOutput Run(const JobSpec& spec, const std::atomic<bool>& cancel);

  // Verifies and re-generates what `spec` lists, on the same threads.
  VerifyOutput RunVerify(const VerifySpec& spec, const std::atomic<bool>& cancel);

  // Runs `work` once on one of the executor's threads, after the blocks
  // already waiting for them, and returns when it is done (an exception it
  // throws is rethrown here). For work a caller does between its jobs that
  // must count against `threads` too: `foundry run` checks and commits
  // here, so `--threads 1` computes on one core.
  void Execute(const std::function<void()>& work);

 private:
  // Calls body(b) for b in [0, count) on the executor's threads.
  template <typename Body>
  void ForEachBlock(size_t count, const Body& body);

  int threads_;
  oneapi::tbb::task_arena arena_;
#if defined(__SANITIZE_THREAD__)
  // Under TSan blocks run on plain threads, `threads_` at a time
  // (job_executor.cc).
  std::counting_semaphore<> permits_;
#endif
};

}  // namespace foundry::worker
