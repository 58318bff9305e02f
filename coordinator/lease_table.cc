#include "coordinator/lease_table.h"

#include <fmt/format.h>

#include "common/secure_random.h"

namespace foundry::coordinator {

const LeaseRecord& LeaseTable::Grant(const std::string& campaign_id, uint64_t seq,
                                     const std::string& worker_id, Clock::time_point deadline,
                                     LeaseKind kind) {
  LeaseRecord lease;
  // The counter keeps ids unique and readable in logs; the random part
  // keeps another worker from guessing one and submitting on it.
  ++counter_;
  lease.lease_id = fmt::format("l-{}-{}", counter_, SecureRandomHex(16));
  lease.kind = kind;
  lease.campaign_id = campaign_id;
  lease.worker_id = worker_id;
  lease.seq = seq;
  lease.granted = Clock::now();
  lease.deadline = deadline;
  ++live_;
  if (kind == LeaseKind::kGenerate) ++generating_[worker_id];
  auto [it, inserted] = leases_.emplace(lease.lease_id, std::move(lease));
  return it->second;
}

LeaseRecord* LeaseTable::Find(const std::string& lease_id) {
  auto it = leases_.find(lease_id);
  return it == leases_.end() ? nullptr : &it->second;
}

LeaseRecord* LeaseTable::NewestLive(const std::string& campaign_id, uint64_t seq, LeaseKind kind) {
  LeaseRecord* newest = nullptr;
  for (auto& [id, l] : leases_) {
    if (l.lapsed || l.seq != seq || l.kind != kind || l.campaign_id != campaign_id) continue;
    if (newest == nullptr || l.granted > newest->granted) newest = &l;
  }
  return newest;
}

void LeaseTable::Remove(const std::string& lease_id) {
  auto it = leases_.find(lease_id);
  if (it == leases_.end()) return;
  if (!it->second.lapsed) EndLive(it->second);
  leases_.erase(it);
}

void LeaseTable::EndLive(const LeaseRecord& lease) {
  --live_;
  if (lease.kind != LeaseKind::kGenerate) return;
  auto g = generating_.find(lease.worker_id);
  if (g != generating_.end() && --g->second == 0) generating_.erase(g);
}

uint32_t LeaseTable::LiveGenerating(const std::string& worker_id) const {
  auto g = generating_.find(worker_id);
  return g == generating_.end() ? 0 : g->second;
}

std::vector<LeaseRecord> LeaseTable::LapseDue(Clock::time_point now,
                                              Clock::time_point forget_before) {
  std::vector<LeaseRecord> due;
  for (auto it = leases_.begin(); it != leases_.end();) {
    LeaseRecord& l = it->second;
    if (!l.lapsed && l.deadline < now) {
      l.lapsed = true;
      EndLive(l);
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
        EndLive(it->second);
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
