#include "puzzles/bulls_cows/answer.h"

#include <fmt/format.h>

#include "puzzles/answer_text.h"
#include "puzzles/bulls_cows/codec.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// "1234" for length 4: a well-formed example that gives nothing away.
std::string Example(int length) { return std::string("123456").substr(0, length); }

std::string Expected(const ParsedPuzzle& p) {
  return fmt::format("type the {} different digits of the secret{}, e.g. {}", p.length,
                     p.leading_zero ? " (it may start with 0)" : " (no leading zero)",
                     Example(p.length));
}

}  // namespace

Score ScoreGuess(std::string_view guess, std::string_view secret) {
  Score s;
  for (size_t i = 0; i < guess.size(); ++i) {
    if (i < secret.size() && guess[i] == secret[i])
      ++s.bulls;
    else if (secret.find(guess[i]) != std::string_view::npos)
      ++s.cows;
  }
  return s;
}

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto s = ParseSolution(solution, *p);
  return s.ok() ? *s : "";
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  const std::string typed = WithoutSpaces(text);
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, Expected(p)));
  };
  if (typed.empty()) return bad("the answer is empty");
  unsigned seen = 0;
  for (size_t i = 0; i < typed.size(); ++i) {
    const char ch = typed[i];
    if (!IsDigit(ch)) {
      return bad(fmt::format("{} holds '{}', not a digit", QuoteAnswer(typed), CharAt(typed, i)));
    }
    const unsigned bit = 1u << (ch - '0');
    if (seen & bit) return bad(fmt::format("{} repeats the digit {}", QuoteAnswer(typed), ch));
    seen |= bit;
  }
  if (typed.size() != static_cast<size_t>(p.length)) {
    return bad(fmt::format("{} has {} digits, the secret has {}", QuoteAnswer(typed), typed.size(),
                           p.length));
  }
  if (!p.leading_zero && typed[0] == '0') {
    return bad(fmt::format("{} starts with 0, which the secret cannot", QuoteAnswer(typed)));
  }
  for (const Clue& c : p.clues) {
    const Score s = ScoreGuess(c.guess, typed);
    if (s.bulls != c.bulls || s.cows != c.cows) return false;
  }
  return true;
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "Type the different digits of the secret, e.g. 1234.";
  return fmt::format("Type the {} different digits of the secret{}, e.g. {}.", p->length,
                     p->leading_zero ? " (it may start with 0)" : " (no leading zero)",
                     Example(p->length));
}

}  // namespace foundry::puzzles::bulls_cows
