// The family contract: one puzzle family behind one small interface.
//
// The generic machinery (worker, coordinator, CLI) holds a Family* from the
// registry and never includes a family's own header, in the manner of Simon
// Tatham's puzzle collection. A family knows nothing of the network, the
// database or the thread pool.
//
// Thread safety: a Family is immutable after registration; every method is
// const and reentrant, so one instance serves all threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/params.h"
#include "puzzles/rng.h"

namespace foundry::puzzles {

// Difficulty levels, easiest first. The names are part of the export format.
inline constexpr std::string_view kLevels[] = {"easy", "medium", "hard", "expert"};

// True for one of kLevels.
bool IsLevel(std::string_view level);

// A family's one table of levels: the least score of each of kLevels,
// easiest first (the first is 0).
using LevelFloors = std::array<double, 4>;

// The hardest level whose floor `score` reaches.
std::string_view LevelForScore(double score, const LevelFloors& floors);

struct Difficulty {
  std::string level;  // one of kLevels
  double score = 0;   // 0 (easiest) .. 1 (hardest), comparable within a family
  // Family-specific figures behind the grade (e.g. {"rules":4}); merged into
  // the export's "difficulty" object beside level and score.
  nlohmann::json details = nlohmann::json::object();

  nlohmann::json ToJson() const;
};

// A candidate the family accepted.
struct Accepted {
  nlohmann::json puzzle;    // the statement, in the family's JSON shape
  nlohmann::json solution;  // the answer, in the family's JSON shape
  Difficulty difficulty;
};

// A candidate the family rejected. `reason` is a short snake_case word that
// becomes a metric label, so a family uses a small fixed set of them.
struct Rejected {
  std::string reason;
};

using Candidate = std::variant<Accepted, Rejected>;

class Family {
 public:
  virtual ~Family() = default;

  // The family's name as users type it ("secret-number").
  virtual std::string_view name() const = 0;
  // The puzzle id prefix without the dash ("sn").
  virtual std::string_view id_prefix() const = 0;
  // One line describing the family.
  virtual std::string_view summary() const = 0;

  // ---- parameters ----
  // Every parameter the family accepts, with defaults and ranges.
  virtual const std::vector<ParamSpec>& param_specs() const = 0;
  // Constraints across keys (e.g. min_rules <= max_rules). Called after the
  // per-key checks; the default accepts everything.
  virtual Status CheckParams(const Params& params) const;

  // Per-key validation (ParseParams) followed by CheckParams.
  Result<Params> MakeParams(const std::map<std::string, std::string>& raw) const;
  Result<Params> MakeParams(const nlohmann::json& object) const;

  // ---- generation ----
  // Draws one candidate from `rng`: an accepted puzzle or a rejection.
  // Uses no randomness but `rng`, so the same rng state gives the same result.
  // REQUIRES: params came from MakeParams() of this family.
  virtual Candidate Generate(Rng& rng, const Params& params) const = 0;

  // ---- checking ----
  // Re-checks a puzzle independently of the generator: the JSON is well
  // formed, `solution` satisfies it, and it is the only solution. Returns the
  // difficulty recomputed from the puzzle alone. Errors: InvalidArgument for
  // malformed JSON shapes, FailedPrecondition for a wrong or non-unique answer.
  virtual Result<Difficulty> Verify(const nlohmann::json& puzzle,
                                    const nlohmann::json& solution) const = 0;

  // Bytes that are equal exactly when two puzzles are the same puzzle (e.g.
  // independent of the order of unordered clues). The puzzle id hashes them.
  // REQUIRES: `puzzle` passed Verify().
  virtual std::string CanonicalBytes(const nlohmann::json& puzzle) const = 0;

  // ---- rendering ----
  // The puzzle as a person reads it, several lines of plain text.
  // REQUIRES: `puzzle` passed Verify().
  virtual std::string RenderText(const nlohmann::json& puzzle) const = 0;
};

}  // namespace foundry::puzzles
