// ClaimCheck: compares a generation job's claims with the answers of the
// verification job that checked them, and settles a disagreement by
// computing the truth locally for the disputed index.
//
// The coordinator runs CompareClaims on every job (digests and string
// compares, no JSON) and Arbitrate only on a dispute: a handful of Verify
// and Generate calls, once per lie, after which the liar is quarantined.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"

namespace foundry::coordinator {

// The generator's claims and the verifier's answers about one job.
struct JobClaims {
  std::vector<foundry::v1::GeneratedPuzzle> claims;  // by index, ascending
  std::vector<uint64_t> regenerate;                  // asked of the verifier
  // The campaign's goal: a claim graded outside it is disputed, since the
  // stream (Family::Generate) rejects every such candidate.
  puzzles::Goal goal;
};
struct JobAnswers {
  std::vector<foundry::v1::PuzzleVerdict> verdicts;   // one per claim, same order
  std::vector<foundry::v1::Regenerated> regenerated;  // one per regenerate index
};

// InvalidArgument when the answers do not have the job's shape (counts or
// indices); otherwise the indices, ascending and without repeats, where
// claims and answers disagree or a claim is graded outside job.goal.
Result<std::vector<uint64_t>> CompareClaims(const JobClaims& job, const JobAnswers& answers);

// Who told the truth about one index.
struct Ruling {
  bool generator_honest = true;
  bool verifier_honest = true;
  // The claimed puzzle fails Verify although the generator produced exactly
  // it: a family bug, not a lie. The puzzle is not stored.
  bool puzzle_invalid = false;
  // What the liar(s) said and what the truth is, for the evidence.
  std::string evidence;
};

// Re-generates `index` and re-verifies its claimed puzzle (when there is
// one) here, and compares both parties with that.
Ruling Arbitrate(const puzzles::Family& family, const puzzles::Params& params, uint64_t seed,
                 uint64_t index, const JobClaims& job, const JobAnswers& answers);

}  // namespace foundry::coordinator
