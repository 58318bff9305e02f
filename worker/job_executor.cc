#include "worker/job_executor.h"

#include <chrono>
#include <variant>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

namespace foundry::worker {
namespace {

// The result of one candidate, kept compact until the ordered merge.
struct Slot {
  bool accepted = false;
  foundry::v1::GeneratedPuzzle puzzle;
  std::string reason;  // when rejected
};

void Generate(const JobSpec& spec, uint64_t index, Slot& slot) {
  puzzles::Rng rng = puzzles::CandidateRng(spec.seed, index);
  puzzles::Candidate c = spec.family->Generate(rng, spec.params);
  if (auto* a = std::get_if<puzzles::Accepted>(&c)) {
    slot.accepted = true;
    slot.puzzle.set_index(index);
    slot.puzzle.set_puzzle_json(a->puzzle.dump());
    slot.puzzle.set_solution_json(a->solution.dump());
    auto* d = slot.puzzle.mutable_difficulty();
    d->set_level(a->difficulty.level);
    d->set_score(a->difficulty.score);
    d->set_details_json(a->difficulty.details.dump());
  } else {
    slot.reason = std::get<puzzles::Rejected>(c).reason;
  }
}

}  // namespace

JobExecutor::JobExecutor(int threads) : threads_(threads), arena_(threads) {}

JobOutput JobExecutor::Run(const JobSpec& spec, const std::atomic<bool>& cancel) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = spec.end_index > spec.first_index ? spec.end_index - spec.first_index : 0;
  std::vector<Slot> slots(n);
  std::atomic<bool> stopped{false};
  // Grain of 64 candidates: cheap families stay well above scheduling cost,
  // expensive ones still spread over every thread.
  arena_.execute([&] {
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<uint64_t>(0, n, 64),
                              [&](const oneapi::tbb::blocked_range<uint64_t>& r) {
                                if (cancel.load(std::memory_order_relaxed)) {
                                  stopped.store(true, std::memory_order_relaxed);
                                  return;
                                }
                                for (uint64_t k = r.begin(); k != r.end(); ++k) {
                                  Generate(spec, spec.first_index + k, slots[k]);
                                }
                              });
  });

  JobOutput out;
  out.cancelled = stopped.load() || cancel.load();
  if (out.cancelled) return out;
  auto& rejected = *out.stats.mutable_rejected_by_reason();
  for (Slot& s : slots) {
    if (s.accepted) {
      out.puzzles.push_back(std::move(s.puzzle));
    } else {
      ++rejected[s.reason];
    }
  }
  out.stats.set_candidates(n);
  out.stats.set_accepted(out.puzzles.size());
  out.stats.set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return out;
}

}  // namespace foundry::worker
