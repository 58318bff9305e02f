#include "bench/fleet_sim_capture.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <unordered_set>

#include "checks/candidate_checks.h"
#include "worker/result_chunks.h"

namespace foundry::fleet_sim {

FamilyCapture::FamilyCapture(const puzzles::Family* family, uint64_t seed, uint64_t job_size,
                             int threads)
    : family_(family),
      params_(*family->MakeParams(std::map<std::string, std::string>{})),
      params_json_(params_.json().dump()),
      seed_(seed),
      job_size_(job_size),
      executor_(threads) {}

std::shared_ptr<const CapturedJob> FamilyCapture::CaptureJob(uint64_t seq) {
  auto job = std::make_shared<CapturedJob>();
  job->seq = seq;
  job->first = seq * job_size_;
  job->end = job->first + job_size_;
  const std::atomic<bool> cancel{false};
  worker::JobOutput out =
      executor_.Run(worker::JobSpec{family_, params_, seed_, job->first, job->end}, cancel);
  // The verifier's side, computed the way a verifying worker computes it:
  // Verify on every claim and a re-generation of every index, so that any
  // sample the coordinator asks for is at hand.
  worker::VerifySpec spec{family_, params_, seed_, out.puzzles, {}};
  for (uint64_t i = job->first; i < job->end; ++i) spec.regenerate.push_back(i);
  worker::VerifyOutput v = executor_.RunVerify(spec, cancel);
  job->claims = std::move(out.puzzles);
  job->stats = std::move(out.stats);
  job->verdicts = std::move(v.verdicts);
  job->regenerated = std::move(v.regenerated);
  return job;
}

void FamilyCapture::CaptureFor(uint64_t count, uint64_t extra) {
  const auto start = std::chrono::steady_clock::now();
  std::unordered_set<std::string> ids;
  uint64_t seq = 0;
  for (; ids.size() < count; ++seq) {
    auto job = CaptureJob(seq);
    for (const auto& p : job->claims) ids.insert(p.id());
    std::lock_guard lock(mu_);
    jobs_[seq] = std::move(job);
  }
  for (uint64_t end = seq + extra; seq < end; ++seq) {
    auto job = CaptureJob(seq);
    std::lock_guard lock(mu_);
    jobs_[seq] = std::move(job);
  }
  capture_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<const CapturedJob> FamilyCapture::Job(uint64_t seq) {
  std::lock_guard lock(mu_);
  auto it = jobs_.find(seq);
  if (it != jobs_.end()) return it->second;
  // Held while computing: rare (never, when CaptureFor's extra suffices),
  // and two workers must not capture the same job twice.
  ++late_captures_;
  auto job = CaptureJob(seq);
  jobs_[seq] = job;
  return job;
}

std::vector<foundry::v1::ResultChunk> FamilyCapture::GenerateAnswer(const foundry::v1::Job& job,
                                                                    double seconds) {
  auto captured = Job(job.first_index() / job_size_);
  worker::JobOutput out;
  out.puzzles = captured->claims;  // a copy: the submission owns its messages
  out.stats = captured->stats;
  out.stats.set_seconds(seconds);
  return worker::ChunkResults(job.lease_id(), std::move(out));
}

std::vector<foundry::v1::ResultChunk> FamilyCapture::VerifyAnswer(const foundry::v1::Job& job,
                                                                  double seconds) {
  auto captured = Job(job.first_index() / job_size_);
  worker::VerifyOutput out;
  out.verdicts.reserve(job.puzzles_size());
  uint64_t valid = 0;
  for (const auto& p : job.puzzles()) {
    // The claims are sorted by index; the verdict is the captured one when
    // the statement is the captured one (always, with honest generators).
    auto it = std::lower_bound(
        captured->claims.begin(), captured->claims.end(), p.index(),
        [](const foundry::v1::GeneratedPuzzle& c, uint64_t i) { return c.index() < i; });
    if (it != captured->claims.end() && it->index() == p.index() &&
        it->puzzle_json() == p.puzzle_json() && it->solution_json() == p.solution_json()) {
      out.verdicts.push_back(captured->verdicts[it - captured->claims.begin()]);
    } else {
      out.verdicts.push_back(checks::VerifyPuzzle(*family_, p));
      std::lock_guard lock(mu_);
      ++live_verdicts_;
    }
    valid += out.verdicts.back().valid() ? 1 : 0;
  }
  auto regenerated = [&](uint64_t i) -> const foundry::v1::Regenerated& {
    return captured->regenerated.at(i - captured->first);
  };
  if (job.regenerate_all()) {
    out.regenerated.assign(captured->regenerated.begin(), captured->regenerated.end());
  } else {
    out.regenerated.reserve(job.regenerate_size());
    for (uint64_t i : job.regenerate()) out.regenerated.push_back(regenerated(i));
  }
  out.stats.set_candidates(out.regenerated.size());
  out.stats.set_accepted(valid);
  out.stats.set_seconds(seconds);
  return worker::ChunkVerifyResults(job.lease_id(), std::move(out));
}

std::vector<std::vector<const foundry::v1::GeneratedPuzzle*>> FamilyCapture::StoredBatches(
    uint64_t count) {
  std::vector<std::vector<const foundry::v1::GeneratedPuzzle*>> batches;
  std::unordered_set<std::string_view> ids;
  std::lock_guard lock(mu_);
  for (const auto& [seq, job] : jobs_) {
    if (ids.size() >= count) break;
    auto& batch = batches.emplace_back();
    for (const auto& p : job->claims) {
      if (ids.size() >= count) break;
      if (ids.insert(p.id()).second) batch.push_back(&p);
    }
    if (batch.empty()) batches.pop_back();
  }
  return batches;
}

size_t FamilyCapture::jobs_captured() {
  std::lock_guard lock(mu_);
  return jobs_.size();
}

uint64_t FamilyCapture::late_captures() {
  std::lock_guard lock(mu_);
  return late_captures_;
}

uint64_t FamilyCapture::live_verdicts() {
  std::lock_guard lock(mu_);
  return live_verdicts_;
}

}  // namespace foundry::fleet_sim
