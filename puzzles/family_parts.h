// PartsFamily: a Family assembled from a family's free functions (its codec,
// verifier, drawing and answer files), so that a family's registration file
// holds only what is its own: name, parameters and generator.
//
// It is also the one place that decides what a method does with a puzzle
// that cannot be read, where the contract (family.h) says "never fails".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles {

// The functions a family is made of. `Puzzle` is the family's parsed
// statement (what its codec reads from the puzzle JSON). Every field must be
// set but score_answer; each has the contract of the Family method of the
// same name.
template <typename Puzzle>
struct FamilyParts {
  Result<Puzzle> (*parse)(const nlohmann::json& puzzle);
  std::string (*canonical_bytes)(const Puzzle& puzzle);
  std::string (*render_text)(const Puzzle& puzzle);
  Result<Difficulty> (*verify)(const nlohmann::json& puzzle, const nlohmann::json& solution);
  std::string (*render_svg)(const nlohmann::json& puzzle, const nlohmann::json* solution);
  std::string (*format_answer)(const nlohmann::json& puzzle, const nlohmann::json& solution);
  Result<bool> (*check_answer)(const nlohmann::json& puzzle, const nlohmann::json& solution,
                               std::string_view text);
  std::string (*answer_prompt)(const nlohmann::json& puzzle);
  // Optional (nullptr: answers are right or wrong, Family's default).
  Result<std::optional<AnswerScore>> (*score_answer)(const nlohmann::json& puzzle,
                                                     const nlohmann::json& solution,
                                                     std::string_view text) = nullptr;
};

// For FamilyParts::check_answer: a family whose answers are judged from the
// puzzle alone (most of them; decodoku also reads its par from the solution).
template <Result<bool> (*Check)(const nlohmann::json& puzzle, std::string_view text)>
Result<bool> FromPuzzleAlone(const nlohmann::json& puzzle, const nlohmann::json& /*solution*/,
                             std::string_view text) {
  return Check(puzzle, text);
}

// For FamilyParts::score_answer: a family whose answers are scored from the
// puzzle alone.
template <Result<std::optional<AnswerScore>> (*Score)(const nlohmann::json& puzzle,
                                                      std::string_view text)>
Result<std::optional<AnswerScore>> ScoreFromPuzzleAlone(const nlohmann::json& puzzle,
                                                        const nlohmann::json& /*solution*/,
                                                        std::string_view text) {
  return Score(puzzle, text);
}

// What a family is called and what it takes (Family's identity and
// param_specs()).
struct FamilyIdentity {
  std::string_view name;       // as users type it ("secret-number")
  std::string_view id_prefix;  // without the dash ("sn"), unique
  std::string_view summary;    // one line
  std::vector<ParamSpec> params;
};

// A Family whose identity is `identity` and whose checking, rendering and
// answer methods are `parts`. The subclass supplies GenerateCandidate (and
// CheckParams when keys constrain each other).
template <typename Puzzle>
class PartsFamily : public Family {
 public:
  PartsFamily(FamilyIdentity identity, FamilyParts<Puzzle> parts)
      : identity_(std::move(identity)), parts_(parts) {}

  std::string_view name() const final { return identity_.name; }
  std::string_view id_prefix() const final { return identity_.id_prefix; }
  std::string_view summary() const final { return identity_.summary; }
  const std::vector<ParamSpec>& param_specs() const final { return identity_.params; }

  Result<Difficulty> Verify(const nlohmann::json& puzzle,
                            const nlohmann::json& solution) const final {
    return parts_.verify(puzzle, solution);
  }

  // An unreadable puzzle (REQUIRES says it verified, but a store may hold
  // anything) gets bytes that no readable puzzle and no other unreadable
  // one can have.
  std::string CanonicalBytes(const nlohmann::json& puzzle) const final {
    auto p = parts_.parse(puzzle);
    return p.ok() ? parts_.canonical_bytes(*p) : "!invalid|" + puzzle.dump();
  }

  // An unreadable puzzle is described, not drawn.
  std::string RenderText(const nlohmann::json& puzzle) const final {
    auto p = parts_.parse(puzzle);
    return p.ok() ? parts_.render_text(*p) : "invalid puzzle: " + p.status().message();
  }

  std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) const final {
    return parts_.render_svg(puzzle, solution);
  }

  std::string FormatAnswer(const nlohmann::json& puzzle,
                           const nlohmann::json& solution) const final {
    return parts_.format_answer(puzzle, solution);
  }

  Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution,
                           std::string_view text) const final {
    return parts_.check_answer(puzzle, solution, text);
  }

  Result<std::optional<AnswerScore>> ScoreAnswer(const nlohmann::json& puzzle,
                                                 const nlohmann::json& solution,
                                                 std::string_view text) const final {
    if (parts_.score_answer == nullptr) return Family::ScoreAnswer(puzzle, solution, text);
    return parts_.score_answer(puzzle, solution, text);
  }

  std::string AnswerPrompt(const nlohmann::json& puzzle) const final {
    return parts_.answer_prompt(puzzle);
  }

 private:
  const FamilyIdentity identity_;
  const FamilyParts<Puzzle> parts_;
};

}  // namespace foundry::puzzles
