// VerifyWork: one verification or audit job, copied out of the coordinator's
// state so that it can be run and settled without the coordinator's lock.
// Private to coordinator/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "coordinator/campaign_run.h"
#include "coordinator/claim_check.h"
#include "coordinator/lease_table.h"
#include "coordinator/worker_trust.h"
#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"

namespace foundry::coordinator {

// What a verification or audit lease is about: everything needed to run it
// and settle it without the coordinator's lock.
struct VerifyWork {
  LeaseKind kind = LeaseKind::kVerify;
  std::string lease_id;
  std::string campaign_id;
  const puzzles::Family* family = nullptr;
  std::string params_json;
  uint64_t seed = 0, seq = 0, first = 0, end = 0;
  // kVerify
  std::string generator;
  std::shared_ptr<JobClaims> job;
  bool full = false;
  foundry::v1::JobStats stats;
  uint64_t claim_digest = 0;
  // kAudit
  SampledCommit audit;
  std::string suspect;
};

// The work of checking `run`'s pending job `seq` under `lease_id`.
// REQUIRES: run.pending holds seq; the coordinator's lock held.
VerifyWork CheckWorkOf(const CampaignRun& run, uint64_t seq, const std::string& lease_id);
// The work of auditing `run`'s committed job `seq` under `lease_id`.
// REQUIRES: run.audits holds seq; the coordinator's lock held.
VerifyWork AuditWorkOf(const CampaignRun& run, uint64_t seq, const std::string& lease_id);
// The job a worker is sent for `work`: the statements without the
// generator's claims, and the indices to re-generate.
foundry::v1::Job VerifyJobFor(const VerifyWork& work);

}  // namespace foundry::coordinator
