// A worker's lease loops share one CoordinatorNotices: an outage, its end
// and a refusal are each told once, however many loops notice them.
#include "worker/coordinator_notices.h"

#include <string>

#include <gtest/gtest.h>

namespace foundry::worker {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CoordinatorNoticesTest, AnOutageSeenByTwoLoopsIsToldOnceAndSoIsItsEnd) {
  CoordinatorNotices notices;
  testing::internal::CaptureStderr();
  notices.Down("connection refused");  // both loops fail to lease
  notices.Down("connection refused");
  notices.Up();  // the first gets through
  notices.Up();  // then the second
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Count(out, "worker: coordinator unreachable (connection refused)"), 1u) << out;
  EXPECT_EQ(Count(out, "worker: coordinator reachable again\n"), 1u) << out;
  EXPECT_LT(out.find("unreachable"), out.find("reachable again")) << out;

  testing::internal::CaptureStderr();  // a later outage is told again
  notices.Down("deadline exceeded");
  notices.Up();
  const std::string again = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Count(again, "unreachable (deadline exceeded)"), 1u) << again;
  EXPECT_EQ(Count(again, "reachable again"), 1u) << again;
}

TEST(CoordinatorNoticesTest, BeingTurnedAwayForNowIsToldOnceAndNotAsAnOutage) {
  CoordinatorNotices notices;
  testing::internal::CaptureStderr();
  notices.Held("worker id 'w' is held by another worker process");
  notices.Held("worker id 'w' is held by another worker process");
  notices.Up();
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Count(out,
                  "worker: the coordinator turns this worker away for now (worker id 'w' is "
                  "held by another worker process); retrying\n"),
            1u)
      << out;
  EXPECT_EQ(Count(out, "worker: the coordinator takes this worker\n"), 1u) << out;
  EXPECT_EQ(Count(out, "unreachable"), 0u) << out;
  EXPECT_EQ(Count(out, "reachable again"), 0u) << out;
}

TEST(CoordinatorNoticesTest, ARefusalIsToldOnce) {
  CoordinatorNotices notices;
  testing::internal::CaptureStderr();
  notices.Refused("the coordinator refuses this worker: quarantined");
  notices.Refused("the coordinator refuses this worker: quarantined");
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Count(out, "worker: the coordinator refuses this worker: quarantined\n"), 1u) << out;
}

}  // namespace
}  // namespace foundry::worker
