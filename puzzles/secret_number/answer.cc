#include "puzzles/secret_number/answer.h"

#include <fmt/format.h>

#include "puzzles/answer_text.h"
#include "puzzles/secret_number/codec.h"
#include "puzzles/secret_number/verifier.h"

namespace foundry::puzzles::secret_number {
namespace {

// "123" for 3 digits: a well-formed example that gives nothing away.
std::string Example(int digits) { return std::string("123456").substr(0, digits); }

std::string Expected(int digits) {
  return fmt::format("type the {}-digit number (no leading zero), e.g. {}", digits,
                     Example(digits));
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto n = ParseSolution(solution, p->digits);
  return n.ok() ? std::to_string(*n) : "";
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  const int digits = p->digits;
  const std::string typed = WithoutSpaces(text);
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, Expected(digits)));
  };
  if (typed.empty()) return bad("the answer is empty");
  for (size_t i = 0; i < typed.size(); ++i) {
    if (!IsDigit(typed[i])) {
      return bad(fmt::format("{} holds '{}', not a digit", QuoteAnswer(typed), CharAt(typed, i)));
    }
  }
  if (typed.size() != static_cast<size_t>(digits)) {
    return bad(fmt::format("{} has {} digits, the number has {}", QuoteAnswer(typed), typed.size(),
                           digits));
  }
  if (typed[0] == '0') return bad(fmt::format("{} starts with 0", QuoteAnswer(typed)));
  return SatisfiesRules(p->rules, std::stoll(typed), digits);
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  const int digits = p.ok() ? p->digits : 3;
  return fmt::format("Type the {}-digit number (no leading zero), e.g. {}.", digits,
                     Example(digits));
}

}  // namespace foundry::puzzles::secret_number
