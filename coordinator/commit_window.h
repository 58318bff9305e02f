// CommitWindow: job results arrive in any order and leave in job order.
//
// Jobs of a campaign are numbered 0, 1, 2, ... by their candidate range. The
// window holds finished jobs that are ahead of the commit cursor and hands
// them out strictly in sequence, which is what makes a campaign's output
// independent of worker speed. Its size is bounded by how many jobs the
// coordinator leases ahead of the cursor.
//
// Thread safety: none; the owner locks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "foundry/v1/puzzle.pb.h"
#include "foundry/v1/worker.pb.h"

namespace foundry::coordinator {

// A finished job whose puzzles passed independent verification.
struct CheckedJob {
  uint64_t seq = 0;
  // Verified puzzles with ids, in index order.
  std::vector<foundry::v1::Puzzle> puzzles;
  foundry::v1::JobStats stats;
  // Submitted puzzles that failed verification (a family bug, not a lie).
  uint64_t invalid = 0;
  // Who generated it, whether every index was re-generated and compared,
  // and checks::ClaimDigest of its claims (for a later audit).
  std::string generator;
  bool fully_checked = true;
  uint64_t claim_digest = 0;
};

class CommitWindow {
 public:
  // `next_seq`: the first job not yet committed.
  explicit CommitWindow(uint64_t next_seq = 0) : next_seq_(next_seq) {}

  // Buffers `job`. False (and `job` dropped) when that job was already
  // committed or is buffered: a repeated submission.
  bool Offer(CheckedJob job);

  // True when job `seq` is committed or buffered.
  bool Holds(uint64_t seq) const { return seq < next_seq_ || ready_.count(seq) != 0; }

  // The next job in sequence, when it has arrived; advances the cursor.
  std::optional<CheckedJob> PopNext();

  // Forgets the buffered job `seq` (its generator turned out to lie).
  void Drop(uint64_t seq) { ready_.erase(seq); }

  // Moves the cursor back to `seq` (a rollback), keeping buffered jobs.
  // REQUIRES: seq <= next_seq().
  void Rewind(uint64_t seq) { next_seq_ = seq; }

  // The buffered jobs, by seq.
  const std::map<uint64_t, CheckedJob>& buffered_jobs() const { return ready_; }

  // The first job not yet handed out by PopNext().
  uint64_t next_seq() const { return next_seq_; }
  size_t buffered() const { return ready_.size(); }

 private:
  uint64_t next_seq_;
  std::map<uint64_t, CheckedJob> ready_;
};

}  // namespace foundry::coordinator
