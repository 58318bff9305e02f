// CommitLine: the ordered commit. Jobs that passed their checks wait in
// their campaign's CommitWindow; this commits them in job order, each one
// atomic store write that also moves the campaign's cursor, so that a
// campaign of count N ends with the first N distinct accepted candidates of
// its stream whoever ran the jobs.
//
// Lock contract: one commit lock serialises commits across campaigns (dedup
// checks and writes must not interleave); it is taken before the state's
// `mu`, never after, and never waited for by a submitting worker: a commit
// asked for while another thread commits is done by that thread before it
// lets go. Private to coordinator/.
#pragma once

#include <atomic>
#include <mutex>
#include <set>
#include <string>

#include "common/status.h"
#include "coordinator/coordinator_state.h"

namespace foundry::coordinator {

class CommitLine {
 public:
  explicit CommitLine(CoordinatorState& state) : s_(state) {}

  // Asks for the jobs of `campaign_id` that are next in order to be
  // committed, and commits them here unless another thread holds the commit
  // lock: that thread commits them before it lets go. So a Submit waits for
  // its own commit at most, never for others'. REQUIRES: mu not held.
  void Ready(const std::string& campaign_id);

  // When a commit finds the store's disk full (ResourceExhausted: below its
  // free-space reserve, or RocksDB stopped by a full disk), its job goes back
  // to wait, its campaign keeps running, and commits are held. This lifts
  // the hold once Store::WriteState is Ok again, committing every waiting
  // job in order. Called by the coordinator's ticker every second; cheap
  // when nothing is held. REQUIRES: commit_mu_ and mu not held.
  void TryRelease();
  // Why commits are held, or "" when they are not. REQUIRES: mu held.
  std::string HeldReasonLocked() const;

  // The commit lock for work other than commits (a cancel, an import, a
  // roll-back): blocks until it is free, and on release commits what was
  // asked for meanwhile, since those asking could not take it.
  class Exclusive {
   public:
    explicit Exclusive(CommitLine& line) : line_(line), lock_(line.commit_mu_) {}
    ~Exclusive() {
      lock_.unlock();
      line_.CommitWanted();
    }
    Exclusive(const Exclusive&) = delete;
    Exclusive& operator=(const Exclusive&) = delete;

   private:
    CommitLine& line_;
    std::unique_lock<std::mutex> lock_;
  };

 private:
  // Commits what was asked for while the commit lock is free, until nothing
  // is left. REQUIRES: commit_mu_ and mu not held.
  void CommitWanted();
  // Commits the ready jobs of one campaign. REQUIRES: commit_mu_ held, mu
  // not held.
  void CommitReadyOf(const std::string& campaign_id);
  // Commits one job: dedup, one store write, new campaign record.
  // REQUIRES: commit_mu_ held, mu not held.
  // On an error `job` is as it was (its puzzles handed back).
  Status CommitJob(CampaignRun& run, foundry::v1::Campaign& record, CheckedJob& job);
  // Holds commits (see TryRelease), logging and counting it once.
  // REQUIRES: commit_mu_ and mu held.
  void Hold(const Status& why);
  // `record` after `job`, of which the store kept `kept`: counters, cursor,
  // and DONE or EXHAUSTED when the job ends the campaign.
  void ApplyJob(CampaignRun& run, foundry::v1::Campaign& record, const CheckedJob& job,
                const storage::NewPuzzles& kept) const;

  CoordinatorState& s_;
  std::mutex commit_mu_;
  // Campaigns with jobs offered for commit since the commit lock's holder
  // last looked. Guarded by s_.mu.
  std::set<std::string> wanted_;
  // Commits held for a full disk. Set and cleared under commit_mu_ and mu;
  // read without them.
  std::atomic<bool> held_{false};
  std::string held_reason_;  // guarded by mu
};

}  // namespace foundry::coordinator
