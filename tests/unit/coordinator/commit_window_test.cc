#include "coordinator/commit_window.h"

#include <gtest/gtest.h>

namespace foundry::coordinator {
namespace {

CheckedJob Job(uint64_t seq) {
  CheckedJob j;
  j.seq = seq;
  return j;
}

TEST(CommitWindowTest, ReleasesJobsInSequenceWhateverTheArrivalOrder) {
  CommitWindow w(0);
  EXPECT_TRUE(w.Offer(Job(2)));
  EXPECT_TRUE(w.Offer(Job(1)));
  EXPECT_FALSE(w.PopNext().has_value()) << "job 0 has not arrived";
  EXPECT_TRUE(w.Offer(Job(0)));
  for (uint64_t want = 0; want < 3; ++want) {
    auto j = w.PopNext();
    ASSERT_TRUE(j.has_value());
    EXPECT_EQ(j->seq, want);
  }
  EXPECT_FALSE(w.PopNext().has_value());
  EXPECT_EQ(w.next_seq(), 3u);
}

TEST(CommitWindowTest, RepeatedAndCommittedJobsAreRefused) {
  CommitWindow w(5);
  EXPECT_FALSE(w.Offer(Job(4))) << "already committed";
  EXPECT_TRUE(w.Offer(Job(6)));
  EXPECT_FALSE(w.Offer(Job(6))) << "already buffered";
  EXPECT_TRUE(w.Holds(3));
  EXPECT_TRUE(w.Holds(6));
  EXPECT_FALSE(w.Holds(5));
  EXPECT_EQ(w.buffered(), 1u);
}

}  // namespace
}  // namespace foundry::coordinator
