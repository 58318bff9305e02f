#include "worker/job_executor.h"

#include <gtest/gtest.h>

#include "puzzles/registry.h"
#include "worker/result_chunks.h"

namespace foundry::worker {
namespace {

JobSpec Spec(uint64_t first, uint64_t end, uint64_t seed = 42) {
  const puzzles::Family* family = *puzzles::FindFamily("secret-number");
  return JobSpec{family, *family->MakeParams(std::map<std::string, std::string>{}), seed, first,
                 end};
}

std::string Fingerprint(const JobOutput& out) {
  std::string s;
  for (const auto& p : out.puzzles)
    s += std::to_string(p.index()) + p.puzzle_json() + p.solution_json() + "\n";
  // Protobuf maps iterate in no fixed order: sort the reasons.
  std::map<std::string, uint64_t> rejected(out.stats.rejected_by_reason().begin(),
                                           out.stats.rejected_by_reason().end());
  for (const auto& [reason, n] : rejected) s += reason + std::to_string(n);
  return s;
}

TEST(JobExecutorTest, OutputIsIdenticalForOneAndFourThreads) {
  std::atomic<bool> cancel{false};
  JobExecutor one(1), four(4);
  const JobOutput a = one.Run(Spec(1000, 6000), cancel);
  const JobOutput b = four.Run(Spec(1000, 6000), cancel);
  ASSERT_FALSE(a.puzzles.empty());
  EXPECT_TRUE(Fingerprint(a) == Fingerprint(b)) << "outputs differ";
  EXPECT_EQ(a.stats.candidates(), 5000u);
  EXPECT_EQ(a.stats.accepted(), a.puzzles.size());
}

TEST(JobExecutorTest, PuzzlesComeInIndexOrderWithinTheRange) {
  std::atomic<bool> cancel{false};
  JobExecutor ex(3);
  const JobOutput out = ex.Run(Spec(500, 2500), cancel);
  uint64_t prev = 0;
  for (const auto& p : out.puzzles) {
    EXPECT_GE(p.index(), 500u);
    EXPECT_LT(p.index(), 2500u);
    EXPECT_TRUE(prev == 0 || p.index() > prev);
    prev = p.index();
  }
  uint64_t rejected = 0;
  for (const auto& [reason, n] : out.stats.rejected_by_reason()) rejected += n;
  EXPECT_EQ(out.stats.accepted() + rejected, 2000u);
}

TEST(JobExecutorTest, SplittingAJobDoesNotChangeItsCandidates) {
  // Candidate i depends only on (seed, i): two half jobs give the whole job.
  std::atomic<bool> cancel{false};
  JobExecutor ex(2);
  const JobOutput whole = ex.Run(Spec(0, 2000), cancel);
  JobOutput first = ex.Run(Spec(0, 700), cancel);
  const JobOutput second = ex.Run(Spec(700, 2000), cancel);
  first.puzzles.insert(first.puzzles.end(), second.puzzles.begin(), second.puzzles.end());
  ASSERT_EQ(first.puzzles.size(), whole.puzzles.size());
  for (size_t i = 0; i < whole.puzzles.size(); ++i) {
    EXPECT_EQ(first.puzzles[i].puzzle_json(), whole.puzzles[i].puzzle_json());
  }
}

TEST(JobExecutorTest, DifferentSeedsGiveDifferentPuzzles) {
  std::atomic<bool> cancel{false};
  JobExecutor ex(2);
  EXPECT_NE(Fingerprint(ex.Run(Spec(0, 200, 1), cancel)),
            Fingerprint(ex.Run(Spec(0, 200, 2), cancel)));
}

TEST(JobExecutorTest, CancelledJobSaysSo) {
  std::atomic<bool> cancel{true};
  JobExecutor ex(2);
  EXPECT_TRUE(ex.Run(Spec(0, 5000), cancel).cancelled);
}

TEST(ResultChunksTest, ChunksAreBoundedOrderedAndTheLastCarriesStats) {
  std::atomic<bool> cancel{false};
  JobExecutor ex(2);
  JobOutput out = ex.Run(Spec(0, 3000), cancel);
  const size_t total = out.puzzles.size();
  const uint64_t accepted = out.stats.accepted();
  auto chunks = ChunkResults("lease-1", std::move(out), 100);
  size_t seen = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].lease_id(), "lease-1");
    EXPECT_LE(chunks[i].puzzles_size(), 100);
    EXPECT_EQ(chunks[i].last(), i + 1 == chunks.size());
    seen += static_cast<size_t>(chunks[i].puzzles_size());
  }
  EXPECT_EQ(seen, total);
  EXPECT_EQ(chunks.back().stats().accepted(), accepted);
  EXPECT_EQ(chunks.size(), (total + 99) / 100);
}

TEST(ResultChunksTest, EmptyOutputIsOneLastChunk) {
  auto chunks = ChunkResults("l", JobOutput{});
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_TRUE(chunks[0].last());
}

}  // namespace
}  // namespace foundry::worker
