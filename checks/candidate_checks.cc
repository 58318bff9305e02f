#include "checks/candidate_checks.h"

#include <variant>

#include <fmt/format.h>

#include "checks/content_digest.h"
#include "puzzles/puzzle_id.h"

namespace foundry::checks {

void SetDifficulty(const puzzles::Difficulty& d, foundry::v1::Difficulty* out) {
  out->set_level(d.level);
  out->set_score(d.score);
  out->set_details_json(d.details.dump());
}

foundry::v1::GeneratedPuzzle ClaimFor(const puzzles::Family& family, uint64_t index,
                                      const puzzles::Accepted& accepted) {
  foundry::v1::GeneratedPuzzle p;
  p.set_index(index);
  p.set_puzzle_json(accepted.puzzle.dump());
  p.set_solution_json(accepted.solution.dump());
  SetDifficulty(accepted.difficulty, p.mutable_difficulty());
  p.set_id(puzzles::PuzzleId(family, family.CanonicalBytes(accepted.puzzle)));
  return p;
}

foundry::v1::PuzzleVerdict VerifyPuzzle(const puzzles::Family& family,
                                        const foundry::v1::GeneratedPuzzle& submitted) {
  foundry::v1::PuzzleVerdict v;
  v.set_index(submitted.index());
  const nlohmann::json puzzle = nlohmann::json::parse(submitted.puzzle_json(), nullptr, false);
  const nlohmann::json solution = nlohmann::json::parse(submitted.solution_json(), nullptr, false);
  if (puzzle.is_discarded() || solution.is_discarded()) {
    v.set_problem(fmt::format("candidate {}: puzzle or solution is not JSON", submitted.index()));
    return v;
  }
  auto difficulty = family.Verify(puzzle, solution);
  if (!difficulty.ok()) {
    v.set_problem(
        fmt::format("candidate {}: {}", submitted.index(), difficulty.status().message()));
    return v;
  }
  v.set_valid(true);
  v.set_id(puzzles::PuzzleId(family, family.CanonicalBytes(puzzle)));
  SetDifficulty(*difficulty, v.mutable_difficulty());
  return v;
}

foundry::v1::Regenerated Regenerate(const puzzles::Family& family, const puzzles::Params& params,
                                    uint64_t seed, uint64_t index) {
  foundry::v1::Regenerated r;
  r.set_index(index);
  puzzles::Rng rng = puzzles::CandidateRng(seed, index);
  puzzles::Candidate c = family.Generate(rng, params);
  if (const auto* a = std::get_if<puzzles::Accepted>(&c)) {
    const foundry::v1::GeneratedPuzzle claim = ClaimFor(family, index, *a);
    r.set_accepted(true);
    r.set_id(claim.id());
    r.set_digest(ContentDigest(claim.puzzle_json(), claim.solution_json()));
  } else {
    r.set_reason(std::get<puzzles::Rejected>(c).reason);
  }
  return r;
}

bool SameDifficulty(const foundry::v1::Difficulty& a, const foundry::v1::Difficulty& b) {
  return a.level() == b.level() && a.score() == b.score() && a.details_json() == b.details_json();
}

}  // namespace foundry::checks
