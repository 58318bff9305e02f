#include "puzzles/bulls_cows/codec.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/bulls_cows/codes.h"

namespace foundry::puzzles::bulls_cows {
namespace {

bool IsCode(const std::string& s, size_t length) {
  if (s.size() != length) return false;
  unsigned seen = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    const unsigned bit = 1u << (ch - '0');
    if (seen & bit) return false;
    seen |= bit;
  }
  return true;
}

bool SmallInt(const nlohmann::json& v, int* out) {
  if (!v.is_number_integer()) return false;
  const auto x = v.get<int64_t>();
  if (x < 0 || x > kMaxLength) return false;
  *out = static_cast<int>(x);
  return true;
}

Result<Clue> ParseClue(const nlohmann::json& j, int length, size_t index) {
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("clue {}: {}", index + 1, what));
  };
  if (!j.is_object()) return bad("must be an object with guess, bulls and cows");
  for (const auto& [key, value] : j.items()) {
    if (key != "guess" && key != "bulls" && key != "cows") {
      return bad(fmt::format("unknown key '{}' (known: guess, bulls, cows)", QuoteInput(key)));
    }
  }
  Clue c;
  const auto guess = j.find("guess");
  if (guess == j.end() || !guess->is_string() ||
      !IsCode(guess->get<std::string>(), static_cast<size_t>(length))) {
    return bad(fmt::format("'guess' must be a string of {} distinct digits", length));
  }
  c.guess = guess->get<std::string>();
  const auto bulls = j.find("bulls");
  if (bulls == j.end() || !SmallInt(*bulls, &c.bulls)) {
    return bad("'bulls' must be an integer from 0 to the length");
  }
  const auto cows = j.find("cows");
  if (cows == j.end() || !SmallInt(*cows, &c.cows)) {
    return bad("'cows' must be an integer from 0 to the length");
  }
  if (c.bulls + c.cows > length) {
    return bad(
        fmt::format("bulls + cows is {}, more than the length {}", c.bulls + c.cows, length));
  }
  return c;
}

std::string Plural(int n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object()) {
    return Status::InvalidArgument("puzzle must be an object with length, leading_zero and clues");
  }
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "length" && key != "leading_zero" && key != "clues") {
      return Status::InvalidArgument(fmt::format(
          "puzzle has unknown key '{}' (known: length, leading_zero, clues)", QuoteInput(key)));
    }
  }
  ParsedPuzzle p;
  const auto length = puzzle.find("length");
  if (length == puzzle.end() || !length->is_number_integer() ||
      length->get<int64_t>() < kMinLength || length->get<int64_t>() > kMaxLength) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'length' must be an integer in {}..{}", kMinLength, kMaxLength));
  }
  p.length = length->get<int>();
  const auto lz = puzzle.find("leading_zero");
  if (lz == puzzle.end() || !lz->is_boolean()) {
    return Status::InvalidArgument("puzzle 'leading_zero' must be true or false");
  }
  p.leading_zero = lz->get<bool>();
  const auto clues = puzzle.find("clues");
  if (clues == puzzle.end() || !clues->is_array()) {
    return Status::InvalidArgument("puzzle 'clues' must be an array of clues");
  }
  if (clues->size() > static_cast<size_t>(kCluesLimit)) {
    return Status::InvalidArgument(
        fmt::format("puzzle has {} clues, at most {} allowed", clues->size(), kCluesLimit));
  }
  for (size_t k = 0; k < clues->size(); ++k) {
    auto c = ParseClue((*clues)[k], p.length, k);
    if (!c.ok()) return c.status();
    p.clues.push_back(std::move(*c));
  }
  return p;
}

Result<std::string> ParseSolution(const nlohmann::json& solution, const ParsedPuzzle& p) {
  if (!solution.is_object() || solution.size() != 1 || !solution.contains("secret") ||
      !solution["secret"].is_string()) {
    return Status::InvalidArgument("solution must be an object {\"secret\": \"digits\"}");
  }
  const std::string s = solution["secret"].get<std::string>();
  if (!IsCode(s, static_cast<size_t>(p.length))) {
    return Status::InvalidArgument(
        fmt::format("solution secret '{}' is not {} distinct digits", QuoteInput(s), p.length));
  }
  if (!p.leading_zero && s[0] == '0') {
    return Status::InvalidArgument(
        fmt::format("solution secret '{}' starts with 0 but leading_zero is false", QuoteInput(s)));
  }
  return s;
}

nlohmann::json ClueJson(const Clue& c) {
  nlohmann::json::object_t o;
  o.emplace_hint(o.end(), "bulls", c.bulls);
  o.emplace_hint(o.end(), "cows", c.cows);
  o.emplace_hint(o.end(), "guess", c.guess);
  return o;
}

std::string CanonicalBytes(const ParsedPuzzle& p) {
  std::vector<std::string> keys;
  for (const Clue& c : p.clues) keys.push_back(fmt::format("{}:{}:{}", c.guess, c.bulls, c.cows));
  std::sort(keys.begin(), keys.end());
  return fmt::format("{}|{}|{}", p.length, p.leading_zero ? 1 : 0, fmt::join(keys, ";"));
}

std::string RenderText(const ParsedPuzzle& p) {
  std::string text =
      fmt::format("I am thinking of a {}-digit number with {} different digits{}.\n", p.length,
                  p.length, p.leading_zero ? " (it may start with 0)" : " (no leading zero)");
  text += "A bull is a right digit in the right place, a cow a right digit in the wrong place.\n";
  for (size_t k = 0; k < p.clues.size(); ++k) {
    const Clue& c = p.clues[k];
    text += fmt::format("{}. {}: {}, {}\n", k + 1, c.guess, Plural(c.bulls, "bull", "bulls"),
                        Plural(c.cows, "cow", "cows"));
  }
  text += "What is my number?";
  return text;
}

}  // namespace foundry::puzzles::bulls_cows
