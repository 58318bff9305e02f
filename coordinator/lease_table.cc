#include "coordinator/lease_table.h"

#include <fmt/format.h>

#include "puzzles/rng.h"

namespace foundry::coordinator {

const LeaseRecord& LeaseTable::Grant(const std::string& campaign_id, uint64_t seq,
                                     const std::string& worker_id, Clock::time_point deadline,
                                     LeaseKind kind) {
  LeaseRecord lease;
  // The counter keeps ids unique; the mixed salt keeps another worker from
  // guessing a lease id and submitting on it.
  ++counter_;
  lease.lease_id = fmt::format("l-{}-{:016x}", counter_,
                               puzzles::SplitMix64(salt_ ^ (counter_ * 0x9e3779b97f4a7c15ULL)));
  lease.kind = kind;
  lease.campaign_id = campaign_id;
  lease.worker_id = worker_id;
  lease.seq = seq;
  lease.deadline = deadline;
  ++live_;
  auto [it, inserted] = leases_.emplace(lease.lease_id, std::move(lease));
  return it->second;
}

LeaseRecord* LeaseTable::Find(const std::string& lease_id) {
  auto it = leases_.find(lease_id);
  return it == leases_.end() ? nullptr : &it->second;
}

void LeaseTable::Remove(const std::string& lease_id) {
  auto it = leases_.find(lease_id);
  if (it == leases_.end()) return;
  if (!it->second.lapsed) --live_;
  leases_.erase(it);
}

std::vector<LeaseRecord> LeaseTable::LapseDue(Clock::time_point now, Clock::time_point forget_before) {
  std::vector<LeaseRecord> due;
  for (auto it = leases_.begin(); it != leases_.end();) {
    LeaseRecord& l = it->second;
    if (!l.lapsed && l.deadline < now) {
      l.lapsed = true;
      --live_;
      due.push_back(l);
    }
    if (l.lapsed && l.deadline < forget_before) {
      it = leases_.erase(it);
    } else {
      ++it;
    }
  }
  return due;
}

std::map<std::string, uint32_t> LeaseTable::LiveByWorker() const {
  std::map<std::string, uint32_t> out;
  for (const auto& [id, l] : leases_) {
    if (!l.lapsed) ++out[l.worker_id];
  }
  return out;
}

std::vector<LeaseRecord> LeaseTable::RemoveWorker(const std::string& worker_id) {
  std::vector<LeaseRecord> out;
  for (auto it = leases_.begin(); it != leases_.end();) {
    if (it->second.worker_id == worker_id) {
      if (!it->second.lapsed) {
        --live_;
        out.push_back(it->second);
      }
      it = leases_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace foundry::coordinator
