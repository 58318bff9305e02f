#include "worker/forgery.h"

#include <algorithm>
#include <map>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checks/candidate_checks.h"
#include "puzzles/rng.h"

namespace foundry::worker {
namespace {

constexpr std::pair<std::string_view, ForgeryKind> kKinds[] = {
    {"wrong-solution", ForgeryKind::kWrongSolution},
    {"non-unique", ForgeryKind::kNonUnique},
    {"inflated-grade", ForgeryKind::kInflatedGrade},
    {"malformed-json", ForgeryKind::kMalformedJson},
    {"out-of-range", ForgeryKind::kOutOfRange},
    {"repeated-index", ForgeryKind::kRepeatedIndex},
    {"claimed-rejected", ForgeryKind::kClaimedRejected},
    {"foreign", ForgeryKind::kForeign},
    {"stale-version", ForgeryKind::kStaleVersion},
    {"lying-verifier", ForgeryKind::kLyingVerifier},
};

// Removes one given from the statement: a digit of a grid, or the last clue
// or rule. What remains is rarely unique.
void DropAClue(nlohmann::json& puzzle) {
  if (puzzle.contains("grid") && puzzle["grid"].is_string()) {
    std::string grid = puzzle["grid"];
    const auto at = grid.find_first_not_of('.');
    if (at != std::string::npos) grid[at] = '.';
    puzzle["grid"] = grid;
    return;
  }
  for (const char* key : {"clues", "rules", "weighings"}) {
    if (puzzle.contains(key) && puzzle[key].is_array() && !puzzle[key].empty()) {
      puzzle[key].erase(puzzle[key].size() - 1);
      return;
    }
  }
}

// A genuine accepted candidate at `index` of another seed's stream.
std::optional<foundry::v1::GeneratedPuzzle> ForeignCandidate(const JobSpec& spec, uint64_t index) {
  for (uint64_t salt = 1; salt <= 64; ++salt) {
    puzzles::Rng rng = puzzles::CandidateRng(spec.seed ^ (0xF0F0F0F0ULL * salt), index);
    puzzles::Candidate c = spec.family->Generate(rng, spec.params);
    if (const auto* a = std::get_if<puzzles::Accepted>(&c)) {
      return checks::ClaimFor(*spec.family, index, *a);
    }
  }
  return std::nullopt;
}

}  // namespace

Result<ForgeryOptions> Forgery::Parse(std::string_view text) {
  ForgeryOptions o;
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  auto it = std::find_if(std::begin(kKinds), std::end(kKinds),
                         [&](const auto& k) { return k.first == kind; });
  if (it == std::end(kKinds)) {
    std::string known;
    for (const auto& k : kKinds) known += fmt::format("{}{}", known.empty() ? "" : ", ", k.first);
    return Status::InvalidArgument(fmt::format("unknown forgery '{}'; known: {}", kind, known));
  }
  o.kind = it->second;
  if (colon != std::string_view::npos) {
    std::string rest(text.substr(colon + 1));
    const auto second = rest.find(':');
    try {
      o.rate = std::stod(rest.substr(0, second));
      if (second != std::string::npos) o.after_jobs = std::stoull(rest.substr(second + 1));
    } catch (const std::exception&) {
      return Status::InvalidArgument(
          fmt::format("bad forgery '{}': want KIND[:RATE[:AFTER_JOBS]]", text));
    }
    if (!(o.rate > 0 && o.rate <= 1))
      return Status::InvalidArgument("forgery rate must be in (0, 1]");
  }
  return o;
}

bool Forgery::Selected(uint64_t index) const {
  const double u = static_cast<double>(puzzles::SplitMix64(index ^ 0xF0F9E5ULL) >> 11) * 0x1.0p-53;
  return u < options_.rate;
}

void Forgery::Apply(const JobSpec& spec, JobOutput& output) {
  if (jobs_.fetch_add(1) < options_.after_jobs || output.puzzles.empty()) return;
  auto& puzzles = output.puzzles;
  switch (options_.kind) {
    case ForgeryKind::kOutOfRange:
      puzzles.back().set_index(spec.end_index + 7);
      return;
    case ForgeryKind::kRepeatedIndex:
      puzzles.insert(puzzles.begin(), puzzles.front());
      output.stats.set_accepted(puzzles.size());
      return;
    case ForgeryKind::kStaleVersion:
    case ForgeryKind::kLyingVerifier:
      return;
    default:
      break;
  }
  std::vector<foundry::v1::GeneratedPuzzle> kept;
  uint64_t dropped = 0;
  for (size_t i = 0; i < puzzles.size(); ++i) {
    auto& p = puzzles[i];
    if (!Selected(p.index())) {
      kept.push_back(std::move(p));
      continue;
    }
    switch (options_.kind) {
      case ForgeryKind::kWrongSolution: {
        // Another puzzle's solution, or a solution with its first digit changed.
        const auto& other = puzzles[(i + 1) % puzzles.size()];
        std::string s = puzzles.size() > 1 ? other.solution_json() : p.solution_json();
        if (puzzles.size() == 1) {
          const auto d = s.find_first_of("0123456789");
          if (d != std::string::npos) s[d] = s[d] == '9' ? '1' : static_cast<char>(s[d] + 1);
        }
        p.set_solution_json(s);
        break;
      }
      case ForgeryKind::kNonUnique: {
        nlohmann::json puzzle = nlohmann::json::parse(p.puzzle_json());
        DropAClue(puzzle);
        p.set_puzzle_json(puzzle.dump());
        break;
      }
      case ForgeryKind::kInflatedGrade:
        p.mutable_difficulty()->set_level("expert");
        p.mutable_difficulty()->set_score(1.0);
        break;
      case ForgeryKind::kMalformedJson:
        p.set_puzzle_json("{\"not json");
        break;
      case ForgeryKind::kClaimedRejected:
        ++dropped;
        continue;
      case ForgeryKind::kForeign:
        if (auto f = ForeignCandidate(spec, p.index())) p = std::move(*f);
        break;
      default:
        break;
    }
    kept.push_back(std::move(p));
  }
  puzzles = std::move(kept);
  if (dropped > 0) {
    auto& reasons = *output.stats.mutable_rejected_by_reason();
    const std::string reason = reasons.empty() ? "rejected" : reasons.begin()->first;
    reasons[reason] += dropped;
  }
  output.stats.set_accepted(puzzles.size());
}

void Forgery::Apply(VerifyOutput& output) const {
  if (options_.kind != ForgeryKind::kLyingVerifier) return;
  for (auto& v : output.verdicts) {
    v.set_valid(false);
    v.set_problem("forged: claimed invalid");
  }
}

}  // namespace foundry::worker
