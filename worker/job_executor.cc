#include "worker/job_executor.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <variant>

#include <oneapi/tbb/parallel_for.h>

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

}  // namespace

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer cannot see the synchronisation inside Debian's
// uninstrumented libtbb and reports every task's first read as a race. Under
// TSan the same blocks therefore run on plain threads pulling block numbers
// from a counter, so that the generation code itself (the families' shared
// tables, the per-block outputs) is still checked for races.
template <typename Body>
void JobExecutor::ForEachBlock(size_t count, const Body& body) {
  std::lock_guard lock(arena_mu_);
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < threads_; ++t) {
    threads.emplace_back([&] {
      for (size_t b; (b = next.fetch_add(1)) < count;) body(b);
    });
  }
  for (auto& t : threads) t.join();
}
#else
template <typename Body>
void JobExecutor::ForEachBlock(size_t count, const Body& body) {
  std::lock_guard lock(arena_mu_);
  arena_.execute([&] { oneapi::tbb::parallel_for(size_t{0}, count, body); });
}
#endif

JobExecutor::JobExecutor(int threads) : threads_(threads), arena_(threads) {}

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
