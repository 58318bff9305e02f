#include "coordinator/verify_work.h"

namespace foundry::coordinator {
namespace {

// What every kind of verification of job `seq` of `run` carries.
VerifyWork JobWork(const CampaignRun& run, uint64_t seq, const std::string& lease_id,
                   LeaseKind kind) {
  VerifyWork work;
  work.kind = kind;
  work.lease_id = lease_id;
  work.campaign_id = run.record.id();
  work.family = run.family;
  work.params_json = run.record.params_json();
  work.seed = run.record.spec().seed();
  work.seq = seq;
  work.first = seq * run.job_size();
  work.end = work.first + run.job_size();
  return work;
}

}  // namespace

VerifyWork CheckWorkOf(const CampaignRun& run, uint64_t seq, const std::string& lease_id) {
  const PendingVerify& pv = run.pending.at(seq);
  VerifyWork work = JobWork(run, seq, lease_id, LeaseKind::kVerify);
  work.generator = pv.generator;
  work.job = pv.job;
  work.full = pv.full;
  work.stats = pv.stats;
  work.claim_digest = pv.claim_digest;
  return work;
}

VerifyWork AuditWorkOf(const CampaignRun& run, uint64_t seq, const std::string& lease_id) {
  const PendingAudit& audit = run.audits.at(seq);
  VerifyWork work = JobWork(run, seq, lease_id, LeaseKind::kAudit);
  work.audit = audit.commit;
  work.suspect = audit.suspect;
  return work;
}

foundry::v1::Job VerifyJobFor(const VerifyWork& work) {
  foundry::v1::Job job;
  job.set_lease_id(work.lease_id);
  job.set_campaign_id(work.campaign_id);
  job.set_family(std::string(work.family->name()));
  job.set_params_json(work.params_json);
  job.set_seed(work.seed);
  job.set_first_index(work.first);
  job.set_end_index(work.end);
  job.set_kind(foundry::v1::JOB_KIND_VERIFY);
  if (work.kind == LeaseKind::kAudit) {
    job.set_regenerate_all(true);
    return job;
  }
  // The verifier sees the statements, never the generator's claims about them.
  job.mutable_puzzles()->Reserve(static_cast<int>(work.job->claims.size()));
  for (const auto& claim : work.job->claims) {
    auto* p = job.add_puzzles();
    p->set_index(claim.index());
    p->set_puzzle_json(claim.puzzle_json());
    p->set_solution_json(claim.solution_json());
  }
  if (work.full && !work.job->regenerate.empty() &&
      work.job->regenerate.size() == work.end - work.first) {
    job.set_regenerate_all(true);
  } else {
    job.mutable_regenerate()->Assign(work.job->regenerate.begin(), work.job->regenerate.end());
  }
  return job;
}

}  // namespace foundry::coordinator
