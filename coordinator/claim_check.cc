#include "coordinator/claim_check.h"

#include <algorithm>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "checks/candidate_checks.h"
#include "checks/content_digest.h"

namespace foundry::coordinator {
namespace {

using foundry::v1::GeneratedPuzzle;
using foundry::v1::PuzzleVerdict;
using foundry::v1::Regenerated;

const GeneratedPuzzle* ClaimAt(const JobClaims& job, uint64_t index) {
  auto it = std::lower_bound(job.claims.begin(), job.claims.end(), index,
                             [](const GeneratedPuzzle& p, uint64_t i) { return p.index() < i; });
  return it != job.claims.end() && it->index() == index ? &*it : nullptr;
}

bool VerdictAgrees(const PuzzleVerdict& v, const GeneratedPuzzle& claim) {
  return v.valid() && v.id() == claim.id() &&
         checks::SameDifficulty(v.difficulty(), claim.difficulty());
}

bool RegeneratedAgrees(const Regenerated& r, const GeneratedPuzzle* claim) {
  if (!r.accepted()) return claim == nullptr;
  return claim != nullptr && r.id() == claim->id() &&
         r.digest() == checks::ContentDigest(claim->puzzle_json(), claim->solution_json());
}

std::string Describe(const GeneratedPuzzle* claim) {
  if (claim == nullptr) return "no puzzle (rejected)";
  return fmt::format("puzzle {} graded {} {:.4f}", claim->id(), claim->difficulty().level(),
                     claim->difficulty().score());
}

}  // namespace

Result<std::vector<uint64_t>> CompareClaims(const JobClaims& job, const JobAnswers& answers) {
  if (answers.verdicts.size() != job.claims.size()) {
    return Status::InvalidArgument(fmt::format("{} verdicts for {} puzzles to verify",
                                               answers.verdicts.size(), job.claims.size()));
  }
  if (answers.regenerated.size() != job.regenerate.size()) {
    return Status::InvalidArgument(fmt::format("{} re-generated candidates for {} asked",
                                               answers.regenerated.size(), job.regenerate.size()));
  }
  std::set<uint64_t> disputed;
  for (size_t i = 0; i < job.claims.size(); ++i) {
    if (answers.verdicts[i].index() != job.claims[i].index()) {
      return Status::InvalidArgument(fmt::format("verdict {} is for index {}, expected {}", i,
                                                 answers.verdicts[i].index(),
                                                 job.claims[i].index()));
    }
    const foundry::v1::Difficulty& grade = job.claims[i].difficulty();
    if (!VerdictAgrees(answers.verdicts[i], job.claims[i]) ||
        !job.goal.Admits(grade.level(), grade.score())) {
      disputed.insert(job.claims[i].index());
    }
  }
  for (size_t i = 0; i < job.regenerate.size(); ++i) {
    const Regenerated& r = answers.regenerated[i];
    if (r.index() != job.regenerate[i]) {
      return Status::InvalidArgument(fmt::format(
          "re-generated candidate {} is index {}, expected {}", i, r.index(), job.regenerate[i]));
    }
    if (!RegeneratedAgrees(r, ClaimAt(job, r.index()))) disputed.insert(r.index());
  }
  return std::vector<uint64_t>(disputed.begin(), disputed.end());
}

Ruling Arbitrate(const puzzles::Family& family, const puzzles::Params& params, uint64_t seed,
                 uint64_t index, const JobClaims& job, const JobAnswers& answers) {
  Ruling ruling;
  // The truth: the candidate as the stream has it...
  puzzles::Rng rng = puzzles::CandidateRng(seed, index);
  puzzles::Candidate c = family.Generate(rng, params);
  std::optional<GeneratedPuzzle> truth;
  if (const auto* a = std::get_if<puzzles::Accepted>(&c))
    truth = checks::ClaimFor(family, index, *a);
  const GeneratedPuzzle* claim = ClaimAt(job, index);

  // ...so the generator is honest when it claimed exactly that.
  if (truth.has_value() != (claim != nullptr)) {
    ruling.generator_honest = false;
  } else if (claim != nullptr) {
    ruling.generator_honest = claim->id() == truth->id() &&
                              claim->puzzle_json() == truth->puzzle_json() &&
                              claim->solution_json() == truth->solution_json() &&
                              checks::SameDifficulty(claim->difficulty(), truth->difficulty());
  }
  std::vector<std::string> lies;
  if (!ruling.generator_honest) {
    lies.push_back(fmt::format("the generator claimed {} at index {}, the stream holds {}",
                               Describe(claim), index, Describe(truth ? &*truth : nullptr)));
  }

  // The verifier is honest when its verdict is what Verify says of the
  // submitted puzzle and its re-generation is the truth.
  if (claim != nullptr) {
    const auto at = static_cast<size_t>(claim - job.claims.data());
    const PuzzleVerdict real = checks::VerifyPuzzle(family, *claim);
    const PuzzleVerdict& said = answers.verdicts[at];
    const bool same =
        said.valid() == real.valid() &&
        (!real.valid() ||
         (said.id() == real.id() && checks::SameDifficulty(said.difficulty(), real.difficulty())));
    if (!same) {
      ruling.verifier_honest = false;
      lies.push_back(fmt::format("the verifier judged index {} {}, Verify says {}", index,
                                 said.valid() ? "valid" : "invalid",
                                 real.valid() ? "valid" : real.problem()));
    }
    if (!real.valid() && ruling.generator_honest) ruling.puzzle_invalid = true;
  }
  for (size_t i = 0; i < job.regenerate.size(); ++i) {
    if (job.regenerate[i] != index) continue;
    const Regenerated& said = answers.regenerated[i];
    const bool same =
        truth
            ? (said.accepted() && said.id() == truth->id() &&
               said.digest() == checks::ContentDigest(truth->puzzle_json(), truth->solution_json()))
            : !said.accepted();
    if (!same) {
      ruling.verifier_honest = false;
      lies.push_back(fmt::format("the verifier re-generated index {} as {}", index,
                                 said.accepted() ? said.id() : "rejected"));
    }
  }
  for (const auto& l : lies) ruling.evidence += (ruling.evidence.empty() ? "" : "; ") + l;
  return ruling;
}

}  // namespace foundry::coordinator
