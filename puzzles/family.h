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

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/goal.h"
#include "puzzles/guesser.h"
#include "puzzles/levels.h"
#include "puzzles/params.h"
#include "puzzles/rng.h"

namespace foundry::puzzles {

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

// How good a player's answer is, for families whose answers are better or
// worse and not only right or wrong (alignment: a layout's points), beside
// the puzzle's own figures to compare it with. Higher is better.
struct AnswerScore {
  double score = 0;   // the answer's
  double target = 0;  // what solves the puzzle
  double greedy = 0;  // what the generator's simple strategy reaches
  double best = 0;    // the best the generator found (the stored solution's)
};

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
  // Every parameter the family accepts, with defaults and ranges. Never one
  // of the goal's reserved keys (goal.h), which every family takes.
  virtual const std::vector<ParamSpec>& param_specs() const = 0;
  // Constraints across keys (e.g. min_rules <= max_rules). Called after the
  // per-key checks; the default accepts everything.
  virtual Status CheckParams(const Params& params) const;

  // The goal's keys (TakeGoal), then per-key validation (ParseParams)
  // followed by CheckParams.
  Result<Params> MakeParams(const std::map<std::string, std::string>& raw) const;
  Result<Params> MakeParams(const nlohmann::json& object) const;

  // ---- generation ----
  // Draws one candidate from `rng`: an accepted puzzle or a rejection.
  // Uses no randomness but `rng`, so the same rng state gives the same result.
  // A puzzle whose grade misses params.goal() is Rejected{"level"}, whatever
  // the family did, so every family honours a goal.
  // REQUIRES: params came from MakeParams() of this family.
  Candidate Generate(Rng& rng, const Params& params) const;

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

  // The puzzle drawn by the family as one complete, standalone SVG 1.1
  // document: it starts with `<svg xmlns="http://www.w3.org/2000/svg"`, has
  // width, height and viewBox, refers to nothing outside itself, escapes
  // every piece of text for XML, and ends with `</svg>`. With `solution`
  // null it shows only the statement; otherwise the answer too (e.g. the
  // filled grid). The caller keeps ownership of both arguments; the result
  // is the caller's. Never fails: a puzzle or solution that cannot be read
  // still gives a well-formed document, which shows the problem in words.
  // REQUIRES: `puzzle` (and `*solution`, when given) passed Verify().
  virtual std::string RenderSvg(const nlohmann::json& puzzle,
                                const nlohmann::json* solution) const = 0;

  // ---- answers a person types ----
  // `solution` written in the family's natural answer form, as a player
  // would type it (e.g. "4821" for secret-number); the form is documented in
  // the family's answer.h and docs/families/<name>.md, and
  // CheckAnswer(puzzle, solution, FormatAnswer(puzzle, solution)) is true.
  // Returns "" when the puzzle or solution cannot be read.
  // REQUIRES: `puzzle` and `solution` passed Verify().
  virtual std::string FormatAnswer(const nlohmann::json& puzzle,
                                   const nlohmann::json& solution) const = 0;

  // Reads `text`, a player's answer in the form FormatAnswer() writes
  // (tolerant of case and of spaces), and judges it by the puzzle's rules:
  // true when it solves the puzzle, false when it is a well-formed answer
  // that does not. Where several answers are right (e.g. any alignment
  // layout that reaches the target) each of them is true, not only the
  // stored `solution`; the family uses `solution` only for figures the
  // puzzle lacks (e.g. decodoku's par). Errors: InvalidArgument when `text`
  // is not an answer in that form (empty, wrong length, not a digit, an
  // unknown coin or item...), with a message that names the problem and
  // shows the expected form; InvalidArgument also for a puzzle or solution
  // that cannot be read.
  // REQUIRES: `puzzle` and `solution` passed Verify().
  virtual Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution,
                                   std::string_view text) const = 0;

  // The score of `text` (an answer CheckAnswer reads) for a family whose
  // answers have one, or nullopt: the default ("not scored"), and also an
  // answer that has no score (alignment: gaps that do not fit the board).
  // The generic machinery keeps the best scored answer of each puzzle
  // without knowing which family it runs. Errors as CheckAnswer's.
  // REQUIRES: `puzzle` and `solution` passed Verify().
  virtual Result<std::optional<AnswerScore>> ScoreAnswer(const nlohmann::json& puzzle,
                                                         const nlohmann::json& solution,
                                                         std::string_view text) const;

  // One line (no newline) telling the player what to type, with an example
  // of the form that does not give the answer away ("Type the 3-digit
  // number (no leading zero), e.g. 123.").
  // REQUIRES: `puzzle` passed Verify().
  virtual std::string AnswerPrompt(const nlohmann::json& puzzle) const = 0;

  // ---- the inverse problem (optional) ----
  // A computer guesser for a secret a person holds, with `params` (the
  // family's, e.g. the code length) and `strategy` (the family's names; ""
  // for its default). FailedPrecondition for a family without one (the
  // default), InvalidArgument for an unknown strategy.
  virtual Result<std::unique_ptr<Guesser>> NewGuesser(const Params& params,
                                                      std::string_view strategy) const;

 protected:
  // The family's generator behind Generate(). It may read params.goal() to
  // aim at the grade asked for (fewer rejections); Generate() filters what
  // it returns either way. The same contract as Generate() otherwise.
  virtual Candidate GenerateCandidate(Rng& rng, const Params& params) const = 0;

 private:
  Result<Params> WithGoal(Result<Params> p, Result<Goal> goal) const;
};

}  // namespace foundry::puzzles
