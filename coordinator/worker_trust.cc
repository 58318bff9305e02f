#include "coordinator/worker_trust.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "coordinator/campaign_run.h"

namespace foundry::coordinator {

WorkerTrust::WorkerTrust(TrustOptions options) : options_(options) {}

Status WorkerTrust::Claim(const std::string& worker, const std::string& key, Clock::time_point now,
                          Clock::duration free_after) {
  auto it = workers_.find(worker);
  if (it == workers_.end()) {
    if (workers_.size() >= options_.max_workers && !MakeRoom(now - free_after)) {
      return Status::ResourceExhausted(fmt::format(
          "this coordinator already keeps {} worker records (its limit), every one of them "
          "active within {:g} s or holding jobs a quarantine would audit; worker id '{}' is "
          "turned away until one goes quiet",
          workers_.size(), std::chrono::duration<double>(free_after).count(), worker));
    }
    it = workers_.try_emplace(worker).first;
  }
  Worker& w = it->second;
  if (w.key.empty() || w.key == key) {
    if (!key.empty()) w.key = key;
    return Status::Ok();
  }
  // Left() sets last_seen to min(): free at once.
  const bool held = w.last_seen != Clock::time_point::min() && now - w.last_seen < free_after;
  if (held || key.empty()) {
    return Status::Aborted(fmt::format(
        "worker id '{}' is held by another worker process (this request came {}); give each "
        "worker its own --worker-id, or wait: a stopped worker's id is free {:g} s after it was "
        "last heard from",
        worker, key.empty() ? "without a key" : "with another key",
        std::chrono::duration<double>(free_after).count()));
  }
  w.key = key;  // the holder went quiet: a restarted worker takes its id back
  return Status::Ok();
}

bool WorkerTrust::Forgettable(const Worker& w) {
  return w.state != foundry::v1::WORKER_STATE_QUARANTINED && HoldsNoEvidence(w);
}

bool WorkerTrust::HoldsNoEvidence(const Worker& w) {
  return w.sampled.empty() && w.audits_pending <= 0;
}

bool WorkerTrust::MakeRoom(Clock::time_point quiet_since) {
  // Quarantined records last: they show an operator what was caught. But
  // they go too when nothing else can, or a liar caught under 10,000 ids
  // would lock every new worker out.
  auto rank = [](const Worker& w) {
    return std::pair(w.state == foundry::v1::WORKER_STATE_QUARANTINED, w.last_seen);
  };
  auto chosen = workers_.end();
  for (auto it = workers_.begin(); it != workers_.end(); ++it) {
    const Worker& w = it->second;
    if (w.last_seen >= quiet_since || !HoldsNoEvidence(w)) continue;
    if (chosen == workers_.end() || rank(w) < rank(chosen->second)) chosen = it;
  }
  if (chosen == workers_.end()) return false;
  workers_.erase(chosen);
  return true;
}

size_t WorkerTrust::ForgetQuiet(Clock::time_point now) {
  return std::erase_if(workers_, [&](const auto& e) {
    // A comparison, not now - last_seen: Left() sets last_seen to min().
    return e.second.last_seen <= now - options_.forget_after && Forgettable(e.second);
  });
}

void WorkerTrust::Seen(const std::string& worker, uint32_t threads, const std::string& build,
                       Clock::time_point now) {
  Worker& w = workers_[worker];
  if (w.state == foundry::v1::WORKER_STATE_PROBATION && options_.probation_jobs == 0) {
    w.state = foundry::v1::WORKER_STATE_TRUSTED;
  }
  if (threads != 0) w.threads = threads;
  if (!build.empty()) w.build = build;
  w.last_seen = now;
  w.last_seen_unix_ms = NowUnixMs();
}

void WorkerTrust::Left(const std::string& worker) {
  auto it = workers_.find(worker);
  // min(), not the epoch: the steady clock's epoch is the boot, and "since an
  // hour ago" on a machine up for less than that is before it.
  if (it != workers_.end()) it->second.last_seen = Clock::time_point::min();
}

bool WorkerTrust::Quarantined(const std::string& worker) const {
  auto it = workers_.find(worker);
  return it != workers_.end() && it->second.state == foundry::v1::WORKER_STATE_QUARANTINED;
}

std::string WorkerTrust::Evidence(const std::string& worker) const {
  auto it = workers_.find(worker);
  return it == workers_.end() ? "" : it->second.evidence;
}

std::vector<uint64_t> WorkerTrust::SampleFor(const std::string& worker, uint64_t first,
                                             uint64_t end, bool* full) {
  *full = false;
  std::vector<uint64_t> out;
  if (!options_.spot_checks || end <= first) return out;
  const Worker& w = workers_[worker];
  if (w.state != foundry::v1::WORKER_STATE_TRUSTED ||
      w.sampled.size() >= options_.max_sampled_commits) {
    *full = true;
    for (uint64_t i = first; i < end; ++i) out.push_back(i);
    return out;
  }
  // A uniform sample without replacement of ceil(rate * n) indices (Floyd).
  const uint64_t n = end - first;
  const uint64_t k = std::min<uint64_t>(
      n, std::max<uint64_t>(
             1, static_cast<uint64_t>(std::ceil(options_.sample_rate * static_cast<double>(n)))));
  std::set<uint64_t> chosen;
  for (uint64_t j = n - k; j < n; ++j) {
    const uint64_t t = rng_.Below(j + 1);
    if (!chosen.insert(t).second) chosen.insert(j);
  }
  for (uint64_t offset : chosen) out.push_back(first + offset);
  *full = k == n;
  return out;
}

void WorkerTrust::Agreed(const std::string& worker, bool full, uint64_t candidates,
                         uint64_t accepted, Clock::time_point now) {
  Worker& w = workers_[worker];
  ++w.agreed;
  if (full) ++w.fully_checked;
  if (w.state == foundry::v1::WORKER_STATE_PROBATION &&
      w.fully_checked >= options_.probation_jobs) {
    w.state = foundry::v1::WORKER_STATE_TRUSTED;
  }
  if (full) w.sampled.clear();  // a fully checked job: what came before needs no audit
  w.recent.push_back({now, candidates, accepted});
  std::erase_if(w.recent, [&](const auto& r) { return now - r.at > std::chrono::minutes(1); });
}

void WorkerTrust::VerifiedForOthers(const std::string& worker) { ++workers_[worker].verify_jobs; }

void WorkerTrust::CommittedOnSample(const std::string& worker, SampledCommit commit) {
  Worker& w = workers_[worker];
  // Without spot checks nobody is ever quarantined: nothing to keep.
  if (!options_.spot_checks || w.state == foundry::v1::WORKER_STATE_QUARANTINED) return;
  w.sampled.push_back(std::move(commit));
}

std::vector<SampledCommit> WorkerTrust::Quarantine(const std::string& worker,
                                                   const std::string& evidence) {
  Worker& w = workers_[worker];
  if (w.state == foundry::v1::WORKER_STATE_QUARANTINED) return {};
  w.state = foundry::v1::WORKER_STATE_QUARANTINED;
  w.evidence = evidence;
  return std::exchange(w.sampled, {});
}

void WorkerTrust::AddAuditsPending(const std::string& worker, int64_t delta) {
  workers_[worker].audits_pending += delta;
}

bool WorkerTrust::AnotherWorkerAlive(const std::string& worker, Clock::time_point since) const {
  for (const auto& [id, w] : workers_) {
    if (id != worker && w.last_seen >= since && w.state != foundry::v1::WORKER_STATE_QUARANTINED) {
      return true;
    }
  }
  return false;
}

size_t WorkerTrust::AliveCount(Clock::time_point since) const {
  return static_cast<size_t>(std::count_if(workers_.begin(), workers_.end(), [&](const auto& e) {
    return e.second.last_seen >= since && e.second.state != foundry::v1::WORKER_STATE_QUARANTINED;
  }));
}

size_t WorkerTrust::QuarantinedCount() const {
  return static_cast<size_t>(std::count_if(workers_.begin(), workers_.end(), [](const auto& e) {
    return e.second.state == foundry::v1::WORKER_STATE_QUARANTINED;
  }));
}

std::vector<foundry::v1::WorkerInfo> WorkerTrust::List(
    Clock::time_point since, const std::map<std::string, uint32_t>& leases) const {
  std::vector<foundry::v1::WorkerInfo> out;
  const auto now = Clock::now();
  for (const auto& [id, w] : workers_) {
    if (w.last_seen < since && w.state != foundry::v1::WORKER_STATE_QUARANTINED) continue;
    foundry::v1::WorkerInfo& info = out.emplace_back();
    info.set_worker_id(id);
    info.set_state(w.state);
    info.set_threads(w.threads);
    info.set_build(w.build);
    if (auto it = leases.find(id); it != leases.end()) info.set_leases(it->second);
    info.set_last_seen_unix_ms(w.last_seen_unix_ms);
    info.set_jobs_agreed(w.agreed);
    info.set_jobs_fully_checked(w.fully_checked);
    info.set_verify_jobs(w.verify_jobs);
    uint64_t candidates = 0, accepted = 0;
    for (const auto& job : w.recent) {
      if (now - job.at > std::chrono::minutes(1)) continue;
      candidates += job.candidates;
      accepted += job.accepted;
    }
    info.set_candidates_per_second(static_cast<double>(candidates) / 60.0);
    info.set_accepted_per_second(static_cast<double>(accepted) / 60.0);
    info.set_evidence(w.evidence);
    info.set_audits_pending(static_cast<uint64_t>(std::max<int64_t>(0, w.audits_pending)));
  }
  return out;
}

}  // namespace foundry::coordinator
