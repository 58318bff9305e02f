// LeaseTable: which worker holds which job, until when.
//
// A lease lapses at its deadline unless a heartbeat extends it; a lapsed job
// goes back to its campaign's queue. Lapsed leases are remembered for a while
// so that a late submission is recognised (and used if the job is still
// wanted) rather than refused as unknown.
//
// Thread safety: none; the owner locks.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace foundry::coordinator {

using Clock = std::chrono::steady_clock;

enum class LeaseKind { kGenerate, kVerify, kAudit };

struct LeaseRecord {
  std::string lease_id;
  std::string campaign_id;
  std::string worker_id;
  uint64_t seq = 0;
  Clock::time_point granted;
  Clock::time_point deadline;
  bool lapsed = false;
  bool taken_back = false;  // ended early for holding up the commit, not for silence
  LeaseKind kind = LeaseKind::kGenerate;
};

class LeaseTable {
 public:
  // Grants a new lease and returns it. Its id is the only credential a
  // submission or heartbeat shows, so it holds 128 bits from the operating
  // system's generator: ids seen before tell nothing of the next.
  const LeaseRecord& Grant(const std::string& campaign_id, uint64_t seq,
                           const std::string& worker_id, Clock::time_point deadline,
                           LeaseKind kind = LeaseKind::kGenerate);

  // Live leases per worker.
  std::map<std::string, uint32_t> LiveByWorker() const;

  // Every live lease of `worker_id`, removed from the table.
  std::vector<LeaseRecord> RemoveWorker(const std::string& worker_id);

  // The lease with `lease_id`, lapsed or not; nullptr when unknown.
  LeaseRecord* Find(const std::string& lease_id);

  // The live lease of `kind` on job `seq` of `campaign_id` granted last;
  // nullptr when there is none.
  LeaseRecord* NewestLive(const std::string& campaign_id, uint64_t seq, LeaseKind kind);

  // Marks every live lease whose deadline is before `now` as lapsed and
  // returns copies of them; forgets leases lapsed before `forget_before`.
  std::vector<LeaseRecord> LapseDue(Clock::time_point now, Clock::time_point forget_before);

  // Forgets a lease (its job was submitted). Unknown ids are fine.
  void Remove(const std::string& lease_id);

  // Live (not lapsed) leases.
  size_t live() const { return live_; }

  // Live generation leases of `worker_id`.
  uint32_t LiveGenerating(const std::string& worker_id) const;

 private:
  // Books `lease` as no longer live.
  void EndLive(const LeaseRecord& lease);

  uint64_t counter_ = 0;
  size_t live_ = 0;
  std::unordered_map<std::string, LeaseRecord> leases_;
  std::unordered_map<std::string, uint32_t> generating_;  // live, by worker; no zeros
};

}  // namespace foundry::coordinator
