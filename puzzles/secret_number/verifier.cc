#include "puzzles/secret_number/verifier.h"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "puzzles/secret_number/codec.h"
#include "puzzles/secret_number/difficulty.h"
#include "puzzles/secret_number/rules.h"

namespace foundry::puzzles::secret_number {
namespace {

// The subject of `s` for `number`, whose `digits` decimal digits are `d`
// (most significant first).
int64_t SubjectOf(const Subject& s, int64_t number, const int* d, int digits) {
  switch (s.kind) {
    case SubjectKind::kDigit: return d[s.i - 1];
    case SubjectKind::kSum: {
      int64_t sum = 0;
      for (int k = 0; k < digits; ++k) sum += d[k];
      return sum;
    }
    case SubjectKind::kProduct: {
      int64_t product = 1;
      for (int k = 0; k < digits; ++k) product *= d[k];
      return product;
    }
    case SubjectKind::kPairSum: return d[s.i - 1] + d[s.j - 1];
    case SubjectKind::kPairDiff: return std::abs(d[s.i - 1] - d[s.j - 1]);
    case SubjectKind::kPairProduct: return d[s.i - 1] * d[s.j - 1];
    case SubjectKind::kNumber: return number;
    case SubjectKind::kCountEven: {
      int64_t even = 0;
      for (int k = 0; k < digits; ++k) even += d[k] % 2 == 0;
      return even;
    }
    case SubjectKind::kCountDistinct: {
      bool seen[10] = {};
      int64_t distinct = 0;
      for (int k = 0; k < digits; ++k) {
        distinct += !seen[d[k]];
        seen[d[k]] = true;
      }
      return distinct;
    }
  }
  return 0;
}

// The index of the first rule that `number` (of `digits` digits) breaks, or
// rules.size() when it satisfies them all.
size_t FirstBrokenRule(const std::vector<Rule>& rules, int64_t number, int digits) {
  int d[kMaxDigits];
  int64_t x = number;
  for (int k = digits - 1; k >= 0; --k, x /= 10) d[k] = static_cast<int>(x % 10);
  for (size_t k = 0; k < rules.size(); ++k) {
    const Rule& r = rules[k];
    const int64_t v = SubjectOf(r.subject, number, d, digits);
    bool holds = false;
    switch (r.op) {
      case Op::kEq: holds = v == r.value; break;
      case Op::kNe: holds = v != r.value; break;
      case Op::kLt: holds = v < r.value; break;
      case Op::kGt: holds = v > r.value; break;
      case Op::kMult: holds = v % r.value == 0; break;  // r.value >= 2 (ParsePuzzle)
    }
    if (!holds) return k;
  }
  return rules.size();
}

}  // namespace

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  auto answer = ParseSolution(solution, p.digits);
  if (!answer.ok()) return answer.status();

  // Every number of the length, each checked against the rules in order.
  // broken_at[k]: how many numbers satisfy rules before k and break rule k,
  // so replaying the rules one by one leaves total - (broken_at[0] + .. +
  // broken_at[k]) numbers after rule k. broken_at[R] counts the survivors.
  const size_t rules = p.rules.size();
  int64_t first = 1;
  for (int k = 1; k < p.digits; ++k) first *= 10;
  const int64_t total = 9 * first;
  std::vector<int64_t> broken_at(rules + 1, 0);
  std::vector<int64_t> examples;  // the first two survivors
  for (int64_t x = first; x < 10 * first; ++x) {
    const size_t k = FirstBrokenRule(p.rules, x, p.digits);
    ++broken_at[k];
    if (k == rules && examples.size() < 2) examples.push_back(x);
  }

  int useful = 0;
  int64_t left = total;
  int64_t before_last = total;
  for (size_t k = 0; k < rules; ++k) {
    before_last = left;
    left -= broken_at[k];
    useful += broken_at[k] > 0;
    if (left == 0) {
      return Status::FailedPrecondition(fmt::format(
          "no number satisfies rules 1 to {}: rule {} ({}) removes the last {} candidates",
          k + 1, k + 1, RuleKey(p.rules[k]), before_last));
    }
  }
  const size_t broken = FirstBrokenRule(p.rules, *answer, p.digits);
  if (broken < rules) {
    return Status::FailedPrecondition(fmt::format("the solution {} breaks rule {} ({})",
                                                  *answer, broken + 1, RuleKey(p.rules[broken])));
  }
  if (left > 1) {
    return Status::FailedPrecondition(
        fmt::format("{} numbers satisfy all {} rules (e.g. {} and {}): the answer is not unique",
                    left, rules, examples[0], examples[1]));
  }
  if (examples[0] != *answer) {  // unreachable: the answer satisfies every rule
    return Status::Internal(fmt::format("the only number left is {}, not the solution {}",
                                        examples[0], *answer));
  }
  return RateDifficulty(static_cast<int>(rules), useful, before_last, total);
}

}  // namespace foundry::puzzles::secret_number
