#include "worker/job_executor.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

#include <oneapi/tbb/global_control.h>

#include "checks/candidate_checks.h"

namespace foundry::worker {
namespace {

// Candidates per block, the unit of parallel work: at most 64, so cheap
// families stay well above scheduling cost, and small enough that a small
// job of an expensive family (ten 16x16 sudoku) still spreads over every
// thread. The block size never changes the output (blocks are joined in
// order).
uint64_t BlockSize(uint64_t candidates, int threads) {
  const uint64_t spread = candidates / (4 * static_cast<uint64_t>(std::max(threads, 1)));
  return std::clamp<uint64_t>(spread, 1, 64);
}

// What one block of consecutive candidates produced. Only accepted puzzles are
// kept, so memory follows the output, not the job size.
struct BlockOutput {
  std::vector<foundry::v1::GeneratedPuzzle> puzzles;
  std::map<std::string, uint64_t> rejected;
};

void Generate(const JobSpec& spec, uint64_t index, BlockOutput& out) {
  puzzles::Rng rng = puzzles::CandidateRng(spec.seed, index);
  puzzles::Candidate c = spec.family->Generate(rng, spec.params);
  if (auto* a = std::get_if<puzzles::Accepted>(&c)) {
    out.puzzles.push_back(checks::ClaimFor(*spec.family, index, *a));
  } else {
    ++out.rejected[std::get<puzzles::Rejected>(c).reason];
  }
}

// oneTBB starts at most hardware_concurrency - 1 worker threads unless told
// otherwise, counting on the calling thread to compute as well; ours only
// waits, so the limit is raised to `threads` workers when needed. The limit
// is process-wide and the smallest live global_control wins, so one control
// is kept for the process and only ever raised: executors of different sizes
// alive at once (a test, a worker and its checks) each get their threads.
// Returns `threads`.
int WithWorkersFor(int threads) {
  using oneapi::tbb::global_control;
  static std::mutex mu;
  static std::unique_ptr<global_control> control;  // leaked on purpose
  std::lock_guard lock(mu);
  const size_t wanted = static_cast<size_t>(threads) + 1;
  if (wanted > global_control::active_value(global_control::max_allowed_parallelism)) {
    // The new control is made before the old, smaller one is destroyed.
    control = std::make_unique<global_control>(global_control::max_allowed_parallelism, wanted);
  }
  return threads;
}

}  // namespace

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer cannot see the synchronisation inside Debian's
// uninstrumented libtbb and reports every task's first read as a race. Under
// TSan the blocks therefore run on plain threads, a few per job, each block
// holding one of `threads_` permits: the same contract as the arena (at most
// `threads_` blocks at once, concurrent jobs interleave), and the generation
// code itself (the families' shared tables, the per-block outputs) is still
// checked for races.
template <typename Body>
void JobExecutor::ForEachBlock(size_t count, const Body& body) {
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
  std::vector<std::thread> threads;
  for (size_t t = 0; t < std::min<size_t>(count, static_cast<size_t>(threads_)); ++t) {
    threads.emplace_back([&] {
      for (size_t b; (b = next.fetch_add(1)) < count;) {
        permits_.acquire();
        try {
          body(b);
        } catch (...) {
          std::lock_guard lock(mu);
          if (!error) error = std::current_exception();
          next = count;  // the other threads stop at their next block
        }
        permits_.release();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}
#else
// Enqueues one puller per thread into the arena and waits, without
// computing, until every puller has run out of blocks. The arena's threads
// are its own workers only (no slot for the waiting thread), so the process
// computes on exactly `threads_` cores however many jobs run at once, and
// the blocks of a second job fill the threads that the first job's last
// blocks leave idle (docs/scale.md, "Every core in process").
template <typename Body>
void JobExecutor::ForEachBlock(size_t count, const Body& body) {
  if (count == 0) return;
  struct Pullers {
    std::atomic<size_t> next{0};
    std::mutex mu;
    std::condition_variable done;
    size_t running = 0;
    std::exception_ptr error;
  } pullers;
  pullers.running = std::min<size_t>(count, static_cast<size_t>(threads_));
  for (size_t t = 0, n = pullers.running; t < n; ++t) {
    arena_.enqueue([&pullers, &body, count] {
      try {
        for (size_t b; (b = pullers.next.fetch_add(1)) < count;) body(b);
      } catch (...) {
        std::lock_guard lock(pullers.mu);
        if (!pullers.error) pullers.error = std::current_exception();
        pullers.next = count;  // the other pullers stop at their next block
      }
      // Notified under the lock: the waiter cannot return, and destroy
      // `pullers`, before this puller is done with it.
      std::lock_guard lock(pullers.mu);
      if (--pullers.running == 0) pullers.done.notify_all();
    });
  }
  std::unique_lock lock(pullers.mu);
  pullers.done.wait(lock, [&] { return pullers.running == 0; });
  if (pullers.error) std::rethrow_exception(pullers.error);
}
#endif

JobExecutor::JobExecutor(int threads)
    : threads_(threads),
      arena_(WithWorkersFor(threads), /*reserved_for_masters=*/0)
#if defined(__SANITIZE_THREAD__)
      ,
      permits_(threads)
#endif
{
  // Set up now rather than lazily inside the first job.
  arena_.initialize();
}

void JobExecutor::Execute(const std::function<void()>& work) {
  ForEachBlock(1, [&work](size_t) { work(); });
}

JobOutput JobExecutor::Run(const JobSpec& spec, const std::atomic<bool>& cancel) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = spec.end_index > spec.first_index ? spec.end_index - spec.first_index : 0;
  const uint64_t block = BlockSize(n, threads_);
  std::vector<BlockOutput> blocks((n + block - 1) / block);
  std::atomic<bool> stopped{false};
  ForEachBlock(blocks.size(), [&](size_t b) {
    const uint64_t begin = spec.first_index + b * block;
    const uint64_t end = std::min(begin + block, spec.end_index);
    // Checked before every candidate: one can take a second (16x16 sudoku),
    // and a cancelled job's output is thrown away anyway.
    for (uint64_t i = begin; i < end; ++i) {
      if (cancel.load(std::memory_order_relaxed)) {
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      Generate(spec, i, blocks[b]);
    }
  });

  JobOutput out;
  out.cancelled = stopped.load() || cancel.load();
  if (out.cancelled) return out;
  auto& rejected = *out.stats.mutable_rejected_by_reason();
  for (BlockOutput& block : blocks) {
    for (auto& p : block.puzzles) out.puzzles.push_back(std::move(p));
    for (const auto& [reason, count] : block.rejected) rejected[reason] += count;
  }
  out.stats.set_candidates(n);
  out.stats.set_accepted(out.puzzles.size());
  out.stats.set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return out;
}

VerifyOutput JobExecutor::RunVerify(const VerifySpec& spec, const std::atomic<bool>& cancel) {
  const auto start = std::chrono::steady_clock::now();
  VerifyOutput out;
  out.verdicts.resize(spec.puzzles.size());
  out.regenerated.resize(spec.regenerate.size());
  // One list of work items: the puzzles to verify, then the indices to
  // re-generate; each item writes only its own slot.
  const size_t items = spec.puzzles.size() + spec.regenerate.size();
  constexpr size_t kItemsPerBlock = 8;
  std::atomic<bool> stopped{false};
  ForEachBlock((items + kItemsPerBlock - 1) / kItemsPerBlock, [&](size_t b) {
    for (size_t i = b * kItemsPerBlock; i < std::min(items, (b + 1) * kItemsPerBlock); ++i) {
      if (cancel.load(std::memory_order_relaxed)) {  // before each item, as in Run
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      if (i < spec.puzzles.size()) {
        out.verdicts[i] = checks::VerifyPuzzle(*spec.family, spec.puzzles[i]);
      } else {
        const size_t k = i - spec.puzzles.size();
        out.regenerated[k] =
            checks::Regenerate(*spec.family, spec.params, spec.seed, spec.regenerate[k]);
      }
    }
  });
  out.cancelled = stopped.load() || cancel.load();
  uint64_t valid = 0;
  for (const auto& v : out.verdicts) valid += v.valid() ? 1 : 0;
  out.stats.set_candidates(spec.regenerate.size());
  out.stats.set_accepted(valid);
  out.stats.set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return out;
}

}  // namespace foundry::worker
