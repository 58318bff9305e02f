// Commits change hands: a Submit whose job is ready while another thread is
// committing leaves its job to that thread instead of waiting for it
// (Coordinator::CommitReady). At 1,000 simulated workers every Submit had
// queued behind whichever one was committing.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "tests/unit/coordinator/coordinator_fixture.h"

namespace foundry::coordinator::testing {
namespace {

using namespace std::chrono_literals;

// The real store, with writes of puzzles (CommitNew, Commit) counted and
// held at a gate while it is closed, and a switch that makes its disk full.
class GatedStore final : public storage::Store {
 public:
  explicit GatedStore(storage::Store& inner) : inner_(inner) {}

  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  void Open() {
    {
      std::lock_guard lock(mu_);
      closed_ = false;
    }
    cv_.notify_all();
  }
  // While full, commits fail as a full disk's do and WriteState says so.
  void SetFull(bool full) { full_ = full; }
  // Waits until `n` commits have reached the gate; false after 30 s.
  bool WaitArrived(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 30s, [&] { return arrived_ >= n; });
  }
  int arrived() {
    std::lock_guard lock(mu_);
    return arrived_;
  }

  Result<storage::NewPuzzles> CommitNew(
      const storage::CommitBatch& batch, uint64_t max_new,
      const std::function<void(const storage::NewPuzzles&, Campaign&)>& finish) override {
    Arrive();
    if (full_) return WriteState();
    return inner_.CommitNew(batch, max_new, finish);
  }
  Status WriteState() override {
    if (full_) return Status::ResourceExhausted("the disk of the test store is full");
    return inner_.WriteState();
  }

  // The rest goes straight through.
  Result<foundry::v1::Puzzle> GetPuzzle(std::string_view id) override {
    return inner_.GetPuzzle(id);
  }
  Result<storage::PuzzleRecord> GetPuzzleRecord(std::string_view id) override {
    return inner_.GetPuzzleRecord(id);
  }
  Result<foundry::v1::Puzzle> GetPuzzleWithoutPlays(std::string_view id) override {
    return inner_.GetPuzzleWithoutPlays(id);
  }
  Result<std::vector<std::optional<foundry::v1::Puzzle>>> GetPuzzles(
      const std::vector<std::string>& ids) override {
    return inner_.GetPuzzles(ids);
  }
  Result<std::vector<bool>> ContainsPuzzles(const std::vector<std::string>& ids) override {
    return inner_.ContainsPuzzles(ids);
  }
  Status Commit(const storage::CommitBatch& batch) override {
    Arrive();
    return inner_.Commit(batch);
  }
  Result<uint64_t> RollbackCampaign(const Campaign& campaign, uint64_t from_index) override {
    return inner_.RollbackCampaign(campaign, from_index);
  }
  Status PutCampaign(const Campaign& campaign) override { return inner_.PutCampaign(campaign); }
  Result<std::vector<Campaign>> LoadCampaigns() override { return inner_.LoadCampaigns(); }
  Result<std::string> Scan(const storage::PuzzleFilter& filter, std::string_view page_token,
                           uint64_t limit,
                           const std::function<bool(const foundry::v1::Puzzle&)>& visit) override {
    return inner_.Scan(filter, page_token, limit, visit);
  }
  Result<std::vector<foundry::v1::Puzzle>> Sample(const storage::PuzzleFilter& filter, size_t n,
                                                  const std::unordered_set<std::string>& exclude,
                                                  uint64_t seed) override {
    return inner_.Sample(filter, n, exclude, seed);
  }
  Result<foundry::v1::RecordPlayResponse> RecordPlay(std::string_view id, bool solved,
                                                     double seconds) override {
    return inner_.RecordPlay(id, solved, seconds);
  }
  uint64_t PlaysRecorded() override { return inner_.PlaysRecorded(); }
  std::map<std::string, uint64_t> PuzzleCounts() override { return inner_.PuzzleCounts(); }
  std::map<std::pair<std::string, std::string>, uint64_t> LevelCounts() override {
    return inner_.LevelCounts();
  }

 private:
  void Arrive() {
    std::unique_lock lock(mu_);
    ++arrived_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !closed_; });
  }

  storage::Store& inner_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool closed_ = false;
  int arrived_ = 0;
  std::atomic<bool> full_{false};
};

class CommitHandOffTest : public CoordinatorTest {
 protected:
  void OpenGated() {
    core_.reset();
    gated_ = std::make_unique<GatedStore>(*store_);
    auto core = Coordinator::Open(gated_.get(), {}, nullptr);
    ASSERT_TRUE(core.ok()) << core.status().ToString();
    core_ = std::move(*core);
  }
  void TearDown() override {
    if (gated_) gated_->Open();  // a failed test must not leave a commit stuck
    core_.reset();
    gated_.reset();
    CoordinatorTest::TearDown();
  }

  std::unique_ptr<GatedStore> gated_;
};

TEST_F(CommitHandOffTest, ASubmitLeavesItsJobToTheThreadCommittingAndDoesNotWaitForIt) {
  OpenGated();
  auto c = core_->SubmitCampaign(Spec(100000, 3, 50));
  ASSERT_TRUE(c.ok());
  // A lone worker: the coordinator checks each job itself, at once, on the
  // submitting thread, and commits it there.
  const foundry::v1::Job first = LeaseJob();
  const foundry::v1::Job second = LeaseJob();
  auto first_output = Run(first);
  auto second_output = Run(second);

  gated_->Close();
  auto committing =
      std::async(std::launch::async, [&] { return core_->SubmitResults(first_output); });
  ASSERT_TRUE(gated_->WaitArrived(1));  // the first job's commit holds the commit lock, at the gate

  auto handed_over =
      std::async(std::launch::async, [&] { return core_->SubmitResults(second_output); });
  ASSERT_EQ(handed_over.wait_for(30s), std::future_status::ready)
      << "the second Submit waited for the first one's commit";
  ASSERT_TRUE(handed_over.get().ok());
  EXPECT_EQ(committing.wait_for(0s), std::future_status::timeout);
  EXPECT_EQ(gated_->arrived(), 1);  // the second job was not committed on its own thread

  gated_->Open();
  ASSERT_TRUE(committing.get().ok());
  // The thread that held the lock committed the second job too, in order.
  EXPECT_EQ(gated_->arrived(), 2);
  auto after = core_->GetCampaign(c->id());
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->next_index(), 100u);
  EXPECT_EQ(after->counters().candidates(), 100u);
}

// An import holds the commit lock for its own write; a job that becomes
// ready meanwhile finds the lock taken, and the import commits it as it
// lets go (else the campaign would wait for the next Submit, forever after
// its last job).
TEST_F(CommitHandOffTest, AJobReadyDuringAnImportIsCommittedWhenTheImportLetsGo) {
  // A puzzle to import: generated into another store, so it is new here.
  foundry::v1::Puzzle foreign;
  {
    auto other_store = storage::Store::Open((dir_ / "other").string(), {});
    ASSERT_TRUE(other_store.ok());
    auto other = Coordinator::Open(other_store->get(), {}, nullptr);
    ASSERT_TRUE(other.ok());
    auto c = (*other)->SubmitCampaign(Spec(5, 77, 50));
    ASSERT_TRUE(c.ok());
    auto lease = (*other)->Lease(Request());
    ASSERT_TRUE(lease.ok() && lease->has_job());
    ASSERT_TRUE((*other)->SubmitResults(Run(lease->job())).ok());
    ASSERT_TRUE((*other_store)
                    ->Scan({}, "", 1,
                           [&](const foundry::v1::Puzzle& p) {
                             foreign = p;
                             return false;
                           })
                    .ok());
    ASSERT_FALSE(foreign.id().empty());
  }
  OpenGated();
  auto c = core_->SubmitCampaign(Spec(100000, 3, 50));
  ASSERT_TRUE(c.ok());
  auto output = Run(LeaseJob());

  gated_->Close();
  ImportSession session;
  auto importing = std::async(std::launch::async, [&] {
    return core_->ImportChunk(session, {ImportItem{1, foreign}});
  });
  ASSERT_TRUE(gated_->WaitArrived(1));  // the import's write, at the gate, holding the lock
  auto ready = std::async(std::launch::async, [&] { return core_->SubmitResults(output); });
  ASSERT_EQ(ready.wait_for(30s), std::future_status::ready);
  ASSERT_TRUE(ready.get().ok());
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 0u);  // not committed yet

  gated_->Open();
  ASSERT_TRUE(importing.get().ok());
  core_->FinishImport(session);
  EXPECT_EQ(session.stored, 1u);
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 50u);
}

// A commit that finds the disk full is not a failed campaign: its job waits,
// unwritten, with those after it; the campaign keeps running and says why;
// once the disk has room the jobs commit in order by themselves, and the
// campaign stores exactly what an undisturbed run stores.
TEST_F(CommitHandOffTest, ACommitOnAFullDiskWaitsAndResumesInOrderWithTheSameIds) {
  OpenGated();
  auto c = core_->SubmitCampaign(Spec(150, 3, 50));
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(core_->SubmitResults(Run(LeaseJob())).ok());
  const uint64_t before = core_->GetCampaign(c->id())->counters().stored();
  ASSERT_GT(before, 0u);

  gated_->SetFull(true);
  const int arrived = gated_->arrived();
  auto second = Run(LeaseJob());
  auto third = Run(LeaseJob());
  ASSERT_TRUE(core_->SubmitResults(second).ok());
  ASSERT_TRUE(core_->SubmitResults(third).ok());
  EXPECT_EQ(gated_->arrived(), arrived + 1);  // one try, then held: no retry per submission
  Campaign held = *core_->GetCampaign(c->id());
  EXPECT_EQ(held.state(), foundry::v1::CAMPAIGN_STATE_RUNNING);
  EXPECT_EQ(held.counters().stored(), before);
  EXPECT_EQ(held.next_index(), 50u);
  EXPECT_NE(held.message().find("waiting for disk space"), std::string::npos) << held.message();
  EXPECT_FALSE(core_->SubmitCampaign(Spec(10, 4, 50)).ok());  // nothing new starts

  gated_->SetFull(false);  // the ticker looks every second
  for (int i = 0; i < 100 && core_->GetCampaign(c->id())->next_index() < 150; ++i) {
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(core_->GetCampaign(c->id())->next_index(), 150u);  // both held jobs, in order
  EXPECT_EQ(gated_->arrived(), arrived + 3);
  const Campaign done = Drive(c->id());
  ASSERT_EQ(done.state(), foundry::v1::CAMPAIGN_STATE_DONE) << done.message();
  EXPECT_TRUE(done.message().find("waiting") == std::string::npos) << done.message();
  const std::set<std::string> ids = StoredIds(c->id());
  EXPECT_EQ(ids.size(), 150u);

  // The same campaign on a disk that never filled.
  core_.reset();  // before the store it commits into
  gated_.reset();
  store_.reset();
  std::filesystem::remove_all(dir_);
  Reopen();
  auto again = core_->SubmitCampaign(Spec(150, 3, 50));
  ASSERT_TRUE(again.ok());
  Drive(again->id());
  EXPECT_EQ(StoredIds(again->id()), ids);
}

}  // namespace
}  // namespace foundry::coordinator::testing
