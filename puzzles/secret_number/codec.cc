#include "puzzles/secret_number/codec.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/json_number.h"
#include "puzzles/secret_number/generator.h"

namespace foundry::puzzles::secret_number {
namespace {

// The integer held by `v`, if it is an integer that fits int64_t.
bool AsInt64(const nlohmann::json& v, int64_t* out) {
  const auto x =
      IntInRange(v, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  if (x) *out = *x;
  return x.has_value();
}

Result<Rule> ParseRule(const nlohmann::json& j, int digits, size_t index) {
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("rule {}: {}", index + 1, what));
  };
  if (!j.is_object()) return bad("must be an object with subject, op and value");
  for (const auto& [key, value] : j.items()) {
    if (key != "subject" && key != "op" && key != "value" && key != "text") {
      return bad(
          fmt::format("unknown key '{}' (known: subject, op, value, text)", QuoteInput(key)));
    }
  }
  const auto subject = j.find("subject");
  if (subject == j.end() || !subject->is_string()) return bad("'subject' must be a string");
  const auto op = j.find("op");
  if (op == j.end() || !op->is_string()) return bad("'op' must be a string");
  const auto value = j.find("value");
  Rule r;
  if (value == j.end() || !AsInt64(*value, &r.value)) return bad("'value' must be an integer");
  const auto text = j.find("text");
  if (text != j.end() && !text->is_string()) return bad("'text' must be a string");

  auto s = ParseSubject(subject->get_ref<const std::string&>(), digits);
  if (!s.ok()) return bad(s.status().message());
  r.subject = *s;
  auto o = ParseOp(op->get_ref<const std::string&>());
  if (!o.ok()) return bad(o.status().message());
  r.op = *o;
  if (r.op == Op::kMult && r.value < 2) {
    return bad(fmt::format("'mult' needs a value of at least 2, got {}", r.value));
  }
  return r;
}

}  // namespace

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object()) {
    return Status::InvalidArgument("puzzle must be an object with digits and rules");
  }
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "digits" && key != "rules") {
      return Status::InvalidArgument(
          fmt::format("puzzle has unknown key '{}' (known: digits, rules)", QuoteInput(key)));
    }
  }
  ParsedPuzzle p;
  const auto digits = puzzle.find("digits");
  int64_t d = 0;
  if (digits == puzzle.end() || !AsInt64(*digits, &d) || d < kMinDigits || d > kMaxDigits) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'digits' must be an integer in {}..{}", kMinDigits, kMaxDigits));
  }
  p.digits = static_cast<int>(d);
  const auto rules = puzzle.find("rules");
  if (rules == puzzle.end() || !rules->is_array()) {
    return Status::InvalidArgument("puzzle 'rules' must be an array of rules");
  }
  if (rules->size() > static_cast<size_t>(kRulesLimit)) {
    return Status::InvalidArgument(
        fmt::format("puzzle has {} rules, at most {} allowed", rules->size(), kRulesLimit));
  }
  p.rules.reserve(rules->size());
  for (size_t k = 0; k < rules->size(); ++k) {
    auto r = ParseRule((*rules)[k], p.digits, k);
    if (!r.ok()) return r.status();
    p.rules.push_back(*r);
  }
  return p;
}

Result<int64_t> ParseSolution(const nlohmann::json& solution, int digits) {
  int64_t lo = 1;
  for (int k = 1; k < digits; ++k) lo *= 10;
  const int64_t hi = lo * 10 - 1;
  int64_t n = 0;
  if (!solution.is_object() || solution.size() != 1 || !solution.contains("number") ||
      !AsInt64(solution["number"], &n)) {
    return Status::InvalidArgument("solution must be an object {\"number\": N}");
  }
  if (n < lo || n > hi) {
    return Status::InvalidArgument(
        fmt::format("solution number {} is not a {}-digit number ({}..{})", n, digits, lo, hi));
  }
  return n;
}

std::string CanonicalBytes(const ParsedPuzzle& p) {
  std::vector<std::string> keys;
  keys.reserve(p.rules.size());
  for (const Rule& r : p.rules) keys.push_back(RuleKey(r));
  std::sort(keys.begin(), keys.end());
  return fmt::format("{}|{}", p.digits, fmt::join(keys, ";"));
}

std::string RenderText(const ParsedPuzzle& p) {
  std::string text =
      fmt::format("I am thinking of a {}-digit number (no leading zero).\n", p.digits);
  for (size_t k = 0; k < p.rules.size(); ++k) {
    text += fmt::format("{}. {}\n", k + 1, RuleText(p.rules[k], p.digits));
  }
  text += "What is my number?";
  return text;
}

}  // namespace foundry::puzzles::secret_number
