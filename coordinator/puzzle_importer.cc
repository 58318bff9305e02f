#include "coordinator/puzzle_importer.h"

#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/secure_random.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {

namespace {

// The verified store record of `item`, or the reason it is refused.
Result<foundry::v1::Puzzle> CheckImported(const foundry::v1::Puzzle& in, int64_t now) {
  auto family = puzzles::FindFamily(in.family());
  if (!family.ok()) return family.status();
  const nlohmann::json puzzle = nlohmann::json::parse(in.puzzle_json(), nullptr, false);
  if (puzzle.is_discarded()) return Status::InvalidArgument("\"puzzle\" is not JSON");
  const nlohmann::json solution = nlohmann::json::parse(in.solution_json(), nullptr, false);
  if (in.solution_json().empty()) {
    return Status::InvalidArgument("no \"solution\": a puzzle is imported only with its answer");
  }
  if (solution.is_discarded()) return Status::InvalidArgument("\"solution\" is not JSON");
  if (!in.params_json().empty()) {
    const nlohmann::json params = nlohmann::json::parse(in.params_json(), nullptr, false);
    if (params.is_discarded()) return Status::InvalidArgument("\"params\" is not JSON");
    auto checked = (*family)->MakeParams(params);
    if (!checked.ok()) return checked.status();
  }
  auto difficulty = (*family)->Verify(puzzle, solution);
  if (!difficulty.ok()) return difficulty.status();
  const std::string id = puzzles::PuzzleId(**family, (*family)->CanonicalBytes(puzzle));
  if (!in.id().empty() && in.id() != id) {
    return Status::InvalidArgument(
        fmt::format("id {} does not match the puzzle (its id is {})", in.id(), id));
  }
  foundry::v1::Puzzle p;
  p.set_id(id);
  p.set_family(in.family());
  p.set_seed(in.seed());
  p.set_params_json(in.params_json().empty() ? "{}" : in.params_json());
  auto* d = p.mutable_difficulty();
  d->set_level(difficulty->level);
  d->set_score(difficulty->score);
  d->set_details_json(difficulty->details.dump());
  p.set_puzzle_json(in.puzzle_json());
  p.set_solution_json(in.solution_json());
  p.set_created_unix_ms(now);
  return p;
}

}  // namespace

Status PuzzleImporter::ImportChunk(ImportSession& session, std::vector<ImportItem> items) {
  const int64_t now = NowUnixMs();
  std::map<std::string, std::vector<foundry::v1::Puzzle>> by_family;
  std::unordered_set<std::string> in_chunk;
  for (ImportItem& item : items) {
    auto p = CheckImported(item.puzzle, now);
    if (!p.ok()) {
      session.rejected.emplace_back(item.line, p.status().message());
      continue;
    }
    if (!in_chunk.insert(p->id()).second) {
      ++session.duplicates;
      continue;
    }
    // The record's index is its line: (campaign, index) stays unique.
    p->set_index(item.line);
    by_family[p->family()].push_back(std::move(*p));
  }

  // Dedup against the store and write under commit_mu_, like CommitJob, so
  // that a campaign committing the same puzzle cannot slip in between.
  CommitLine::Exclusive commit_lock(commits_);
  for (auto& [family, puzzles] : by_family) {
    std::vector<std::string> ids;
    for (const auto& p : puzzles) ids.push_back(p.id());
    auto stored = s_.store->ContainsPuzzles(ids);
    if (!stored.ok()) return stored.status();
    storage::CommitBatch batch;
    for (size_t i = 0; i < puzzles.size(); ++i) {
      if ((*stored)[i]) {
        ++session.duplicates;
      } else {
        batch.puzzles.push_back(std::move(puzzles[i]));
      }
    }
    if (batch.puzzles.empty()) continue;

    auto [it, fresh] = session.campaigns.try_emplace(family);
    foundry::v1::Campaign& record = it->second;
    if (fresh) {
      record.set_id(fmt::format("c-{:016x}", SecureRandom64()));
      record.mutable_spec()->set_family(family);
      record.set_params_json("{}");
      record.set_state(foundry::v1::CAMPAIGN_STATE_DONE);
      record.set_created_unix_ms(now);
      record.set_finished_unix_ms(now);
    }
    const uint64_t stored_now = record.counters().stored() + batch.puzzles.size();
    record.mutable_spec()->set_count(stored_now);
    record.mutable_counters()->set_accepted(stored_now);
    record.mutable_counters()->set_stored(stored_now);
    record.set_progress(1.0);
    record.set_updated_unix_ms(now);
    record.set_message(fmt::format("imported from a file: {} puzzles stored", stored_now));
    for (auto& p : batch.puzzles) p.set_campaign_id(record.id());
    batch.campaign = record;
    const size_t n = batch.puzzles.size();
    FOUNDRY_RETURN_IF_ERROR(s_.store->Commit(batch));
    session.stored += n;
    if (s_.metrics) s_.metrics->Stored(family, n);
  }
  return Status::Ok();
}

}  // namespace foundry::coordinator
