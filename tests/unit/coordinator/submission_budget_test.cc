// SubmissionBudget: what all submission streams hold together never passes
// its limit, however many take and give at once.
#include "coordinator/submission_budget.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace foundry::coordinator {
namespace {

TEST(SubmissionBudgetTest, TakesWithinTheLimitAndNothingPastIt) {
  SubmissionBudget budget(100);
  EXPECT_TRUE(budget.Take(60));
  EXPECT_FALSE(budget.Take(41));
  EXPECT_EQ(budget.held(), 60u) << "a refused take takes nothing";
  EXPECT_TRUE(budget.Take(40));
  EXPECT_FALSE(budget.Take(1));
  budget.Give(60);
  EXPECT_TRUE(budget.Take(60));
  EXPECT_EQ(budget.held(), 100u);
  EXPECT_FALSE(budget.Take(SIZE_MAX)) << "no overflow past the limit";
}

TEST(SubmissionBudgetTest, StreamsTakingAtOnceNeverPassTheLimit) {
  SubmissionBudget budget(1000);
  std::atomic<size_t> most{0};
  std::vector<std::thread> streams;
  for (int t = 0; t < 4; ++t) {
    streams.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        const size_t bytes = 100 + 37 * static_cast<size_t>((i + t) % 10);
        if (!budget.Take(bytes)) continue;
        size_t seen = budget.held();
        size_t prev = most.load();
        while (seen > prev && !most.compare_exchange_weak(prev, seen)) {
        }
        budget.Give(bytes);
      }
    });
  }
  for (auto& s : streams) s.join();
  EXPECT_LE(most.load(), 1000u);
  EXPECT_GT(most.load(), 0u);
  EXPECT_EQ(budget.held(), 0u);
}

}  // namespace
}  // namespace foundry::coordinator
