// Forgery: a worker that lies, for tests only.
//
// The integration tests of untrusted workers (tests/integration/trust_test.cc)
// start a real foundry-worker with the hidden flag --forge=KIND and check
// that the coordinator refuses or repairs every kind of lie. Nothing else
// uses this file; an honest worker has no Forgery.
//
// Thread safety: immutable after construction, except the job counter.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "worker/job_executor.h"

namespace foundry::worker {

enum class ForgeryKind {
  kWrongSolution,    // a solution swapped for another puzzle's
  kNonUnique,        // a clue removed, the puzzle no longer unique
  kInflatedGrade,    // level "expert", score 1
  kMalformedJson,    // puzzle_json that is not JSON
  kOutOfRange,       // an index past the job's end
  kRepeatedIndex,    // one puzzle sent twice
  kClaimedRejected,  // accepted candidates reported as rejected
  kForeign,          // genuine puzzles of another seed in place of the real ones
  kStaleVersion,     // another generation fingerprint
  kLyingVerifier,    // verification jobs answered "invalid" for every puzzle
};

struct ForgeryOptions {
  ForgeryKind kind = ForgeryKind::kWrongSolution;
  // Share of the accepted candidates forged (by a hash of the index).
  double rate = 1.0;
  // Honest for this many generation jobs first (to pass probation).
  uint64_t after_jobs = 0;
};

class Forgery {
 public:
  // Parses "KIND[:RATE[:AFTER_JOBS]]", e.g. "claimed-rejected:0.01:8".
  static Result<ForgeryOptions> Parse(std::string_view text);

  explicit Forgery(ForgeryOptions options) : options_(options) {}

  ForgeryKind kind() const { return options_.kind; }

  // Rewrites a generation job's honest output into the lie (once the honest
  // stretch is over). `spec` is the job that produced it.
  void Apply(const JobSpec& spec, JobOutput& output);

  // Rewrites a verification job's honest answers (kLyingVerifier only).
  void Apply(VerifyOutput& output) const;

 private:
  bool Selected(uint64_t index) const;

  ForgeryOptions options_;
  std::atomic<uint64_t> jobs_{0};
};

}  // namespace foundry::worker
