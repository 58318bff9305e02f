// WorkerTrust: probation, sampling, quarantine, and the survival odds of a
// forger that docs/operations.md states, checked empirically.
#include "coordinator/worker_trust.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

namespace foundry::coordinator {
namespace {

using Clock = WorkerTrust::Clock;

// A WorkerTrust of `options` that has seen worker "w" (version 1).
WorkerTrust SeenTrust(const TrustOptions& options) {
  WorkerTrust trust(options);
  trust.Seen("w", 1, "", Clock::now());
  return trust;
}

TEST(WorkerTrustTest, ProbationChecksEveryIndexThenASample) {
  WorkerTrust trust = SeenTrust({.probation_jobs = 2, .sample_rate = 0.1});
  bool full = false;
  for (int job = 0; job < 2; ++job) {
    auto sample = trust.SampleFor("w", 100, 200, &full);
    EXPECT_TRUE(full);
    EXPECT_EQ(sample.size(), 100u);
    trust.Agreed("w", full, 100, 10, Clock::now());
  }
  auto sample = trust.SampleFor("w", 100, 200, &full);
  EXPECT_FALSE(full);
  EXPECT_EQ(sample.size(), 10u);
  EXPECT_EQ(std::set<uint64_t>(sample.begin(), sample.end()).size(), 10u);
  for (uint64_t i : sample) EXPECT_TRUE(i >= 100 && i < 200);
}

TEST(WorkerTrustTest, QuarantineHandsBackTheCommitsMadeOnASample) {
  WorkerTrust trust(TrustOptions{});
  trust.CommittedOnSample("w", SampledCommit{"c", 3, 42, {}, 0, 0});
  trust.CommittedOnSample("w", SampledCommit{"c", 4, 43, {}, 0, 0});
  auto commits = trust.Quarantine("w", "lied");
  ASSERT_EQ(commits.size(), 2u);
  EXPECT_EQ(commits[1].seq, 4u);
  EXPECT_TRUE(trust.Quarantined("w"));
  EXPECT_EQ(trust.Evidence("w"), "lied");
  EXPECT_TRUE(trust.Quarantine("w", "again").empty());
  EXPECT_EQ(trust.Evidence("w"), "lied");
}

// A trusted worker is checked in full again once max_sampled_commits of its
// jobs were committed on a sample, and that full check clears them: what a
// quarantine must audit stays bounded.
TEST(WorkerTrustTest, TooManyCommitsOnASampleBringAFullCheck) {
  WorkerTrust trust = SeenTrust({.probation_jobs = 0, .max_sampled_commits = 3});
  bool full = true;
  for (uint64_t seq = 0; seq < 3; ++seq) {
    EXPECT_EQ(trust.SampleFor("w", 0, 1000, &full).size(), 30u);
    EXPECT_FALSE(full);
    trust.Agreed("w", full, 1000, 100, Clock::now());
    trust.CommittedOnSample("w", SampledCommit{"c", seq, 0, {}, 0, 0});
  }
  EXPECT_EQ(trust.SampleFor("w", 0, 1000, &full).size(), 1000u);
  EXPECT_TRUE(full);
  trust.Agreed("w", full, 1000, 100, Clock::now());
  EXPECT_EQ(trust.SampleFor("w", 0, 1000, &full).size(), 30u);
  EXPECT_FALSE(full);
  EXPECT_TRUE(trust.Quarantine("w", "lied").empty());  // nothing left to audit
}

// The formula of docs/operations.md: a trusted worker forging F of each
// job's n candidates, k of them re-generated, survives one job with
// probability C(n-F, k) / C(n, k), and J jobs with its J-th power.
double SurvivalOdds(uint64_t n, uint64_t forged, uint64_t k, uint64_t jobs) {
  double one = 1;
  for (uint64_t i = 0; i < k; ++i)
    one *= static_cast<double>(n - forged - i) / static_cast<double>(n - i);
  return std::pow(one, static_cast<double>(jobs));
}

TEST(WorkerTrustTest, ASampledForgerSurvivesAsOftenAsTheFormulaSays) {
  WorkerTrust trust = SeenTrust({.probation_jobs = 0, .sample_rate = 0.03});
  const uint64_t n = 512, forged = 5, jobs = 4;  // f ~ 1%
  // The forged indices of every job: the first `forged` of its range.
  const int trials = 20000;
  int survived = 0;
  bool full = false;
  for (int t = 0; t < trials; ++t) {
    bool caught = false;
    for (uint64_t j = 0; j < jobs && !caught; ++j) {
      for (uint64_t i : trust.SampleFor("w", j * n, (j + 1) * n, &full))
        caught |= i - j * n < forged;
    }
    survived += caught ? 0 : 1;
  }
  const uint64_t k = static_cast<uint64_t>(std::ceil(0.03 * n));
  const double expected = SurvivalOdds(n, forged, k, jobs);
  const double observed = static_cast<double>(survived) / trials;
  // Four standard deviations of a binomial proportion.
  const double sd = std::sqrt(expected * (1 - expected) / trials);
  EXPECT_NEAR(observed, expected, 4 * sd) << "expected " << expected;
  EXPECT_GT(expected, 0.1);  // the test distinguishes something
  EXPECT_LT(expected, 0.9);
}

}  // namespace
}  // namespace foundry::coordinator
