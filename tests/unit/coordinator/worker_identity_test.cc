// A worker id is held by the process whose key first used it: another
// process cannot lease in its name (inherit its trust, or get it
// quarantined), nor say it stopped.
#include <thread>

#include <gmock/gmock.h>

#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator::testing {
namespace {

using std::chrono::milliseconds;

foundry::v1::ReleaseRequest Stopping(const std::string& worker, const std::string& key) {
  foundry::v1::ReleaseRequest r;
  r.set_worker_id(worker);
  r.set_worker_key(key);
  r.set_worker_stopping(true);
  return r;
}

class WorkerIdentityTest : public CoordinatorTest {
 protected:
  static foundry::v1::LeaseRequest Keyed(const std::string& worker, const std::string& key) {
    foundry::v1::LeaseRequest r = Request(worker);
    r.set_worker_key(key);
    return r;
  }

  void SetUp() override {
    CoordinatorTest::SetUp();
    CoordinatorOptions opts;
    opts.lease_ttl = milliseconds(300);
    Reopen(opts);
    ASSERT_TRUE(core_->SubmitCampaign(Spec(100000, 5, 60)).ok());
  }
};

TEST_F(WorkerIdentityTest, AnotherKeyOrNoneCannotLeaseUnderAHeldId) {
  auto honest = core_->Lease(Keyed("honest", "key-a"));
  ASSERT_TRUE(honest.ok() && honest->has_job());

  auto liar = core_->Lease(Keyed("honest", "key-b"));
  ASSERT_FALSE(liar.ok());
  EXPECT_EQ(liar.status().code(), Status::Code::kAborted);
  EXPECT_THAT(liar.status().message(),
              ::testing::HasSubstr("worker id 'honest' is held by another worker process (this "
                                   "request came with another key); give each worker its own "
                                   "--worker-id, or wait: a stopped worker's id is free 0.3 s"));
  auto keyless = core_->Lease(Request("honest"));
  ASSERT_FALSE(keyless.ok());
  EXPECT_EQ(keyless.status().code(), Status::Code::kAborted);
  EXPECT_THAT(keyless.status().message(),
              ::testing::HasSubstr("(this request came without a key)"));

  // The holder goes on as before.
  ASSERT_TRUE(core_->SubmitResults(Run(honest->job())).ok());
  auto next = core_->Lease(Keyed("honest", "key-a"));
  ASSERT_TRUE(next.ok());
  EXPECT_TRUE(next->has_job());
}

TEST_F(WorkerIdentityTest, AStoppedWorkersIdIsFreeALeaseTtlAfterItWasLastHeardFrom) {
  ASSERT_TRUE(core_->Lease(Keyed("w", "first-process")).ok());
  EXPECT_FALSE(core_->Lease(Keyed("w", "restarted")).ok()) << "still held";
  std::this_thread::sleep_for(milliseconds(400));  // past the 300 ms TTL, no word from it
  auto restarted = core_->Lease(Keyed("w", "restarted"));
  ASSERT_TRUE(restarted.ok()) << restarted.status().ToString();
  // Now the restarted process holds it, and the old key is the stranger.
  EXPECT_EQ(core_->Lease(Keyed("w", "first-process")).status().code(), Status::Code::kAborted);
}

TEST_F(WorkerIdentityTest, OnlyTheHolderCanSayItStopped) {
  ASSERT_TRUE(core_->Lease(Keyed("w", "key-a")).ok());
  // A stranger says "w" stopped: not believed, the id stays held.
  ASSERT_TRUE(core_->ReleaseLeases(Stopping("w", "key-b")).ok());
  EXPECT_EQ(core_->Lease(Keyed("w", "key-b")).status().code(), Status::Code::kAborted);
  // The holder says so: the id is free at once.
  ASSERT_TRUE(core_->ReleaseLeases(Stopping("w", "key-a")).ok());
  EXPECT_TRUE(core_->Lease(Keyed("w", "key-b")).ok());
}

TEST_F(WorkerIdentityTest, WithoutKeysNothingIsBound) {
  // Clients that send no key (older workers, other languages' clients) work
  // as before: any request may use any id.
  for (int i = 0; i < 3; ++i) {
    auto r = core_->Lease(Request("plain"));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  // The first keyed request binds it from then on.
  ASSERT_TRUE(core_->Lease(Keyed("plain", "key-a")).ok());
  EXPECT_EQ(core_->Lease(Request("plain")).status().code(), Status::Code::kAborted);
}

}  // namespace
}  // namespace foundry::coordinator::testing
