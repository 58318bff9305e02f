#include "coordinator/puzzle_checker.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "puzzles/puzzle_id.h"

namespace foundry::coordinator {

CheckedJob CheckSubmission(const puzzles::Family& family, const Provenance& provenance,
                           uint64_t seq, std::vector<foundry::v1::GeneratedPuzzle> submitted,
                           int64_t now_unix_ms, std::string* first_problem) {
  CheckedJob job;
  job.seq = seq;
  job.puzzles.reserve(submitted.size());
  auto fail = [&](const std::string& why) {
    ++job.invalid;
    if (first_problem != nullptr && first_problem->empty()) *first_problem = why;
  };
  for (auto& g : submitted) {
    nlohmann::json puzzle = nlohmann::json::parse(g.puzzle_json(), nullptr, false);
    nlohmann::json solution = nlohmann::json::parse(g.solution_json(), nullptr, false);
    if (puzzle.is_discarded() || solution.is_discarded()) {
      fail(fmt::format("candidate {}: puzzle or solution is not JSON", g.index()));
      continue;
    }
    auto difficulty = family.Verify(puzzle, solution);
    if (!difficulty.ok()) {
      fail(fmt::format("candidate {}: {}", g.index(), difficulty.status().message()));
      continue;
    }
    foundry::v1::Puzzle& p = job.puzzles.emplace_back();
    p.set_id(puzzles::PuzzleId(family, family.CanonicalBytes(puzzle)));
    p.set_family(std::string(family.name()));
    p.set_campaign_id(provenance.campaign_id);
    p.set_seed(provenance.seed);
    p.set_index(g.index());
    p.set_params_json(provenance.params_json);
    auto* d = p.mutable_difficulty();
    d->set_level(difficulty->level);
    d->set_score(difficulty->score);
    d->set_details_json(difficulty->details.dump());
    p.set_puzzle_json(std::move(*g.mutable_puzzle_json()));
    p.set_solution_json(std::move(*g.mutable_solution_json()));
    p.set_created_unix_ms(now_unix_ms);
  }
  return job;
}

}  // namespace foundry::coordinator
