#include "coordinator/coordinator_state.h"

#include "puzzles/fingerprint.h"

namespace foundry::coordinator {

CoordinatorState::CoordinatorState(storage::Store* store_in, CoordinatorOptions options_in,
                                   CoordinatorMetrics* metrics_in)
    : store(store_in),
      options(std::move(options_in)),
      metrics(metrics_in),
      fingerprint(options.generation_fingerprint.empty() ? puzzles::GenerationFingerprint()
                                                         : options.generation_fingerprint),
      trust(options.trust) {}

void CoordinatorState::ReturnLeaseLocked(const LeaseRecord& lease) {
  auto it = runs.find(lease.campaign_id);
  if (it == runs.end()) return;
  CampaignRun& run = *it->second;
  if (lease.kind == LeaseKind::kGenerate) {
    // (A finished campaign leases nothing, unless an audit rolls it back.)
    if (!run.Delivered(lease.seq)) run.requeued.insert(lease.seq);
  } else if (auto p = run.pending.find(lease.seq);
             p != run.pending.end() && p->second.lease_id == lease.lease_id) {
    p->second.lease_id.clear();  // another verifier takes it
  } else if (auto a = run.audits.find(lease.seq);
             a != run.audits.end() && a->second.lease_id == lease.lease_id) {
    a->second.lease_id.clear();
  }
}

bool CoordinatorState::StillWantedLocked(const LeaseRecord& lease) const {
  auto it = runs.find(lease.campaign_id);
  if (it == runs.end()) return false;
  const CampaignRun& run = *it->second;
  switch (lease.kind) {
    case LeaseKind::kGenerate:
      return run.running() && !run.Delivered(lease.seq);
    case LeaseKind::kVerify: {
      // A finished campaign commits nothing more: its checks are moot.
      auto p = run.pending.find(lease.seq);
      return run.running() && p != run.pending.end() && p->second.lease_id == lease.lease_id;
    }
    case LeaseKind::kAudit: {
      // Audits outlive their campaign: a mismatch rolls even a finished one back.
      auto a = run.audits.find(lease.seq);
      return a != run.audits.end() && a->second.lease_id == lease.lease_id;
    }
  }
  return false;
}

}  // namespace foundry::coordinator
