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

// True when `number`, whose digits are `d`, satisfies rule r.
bool Holds(const Rule& r, int64_t number, const int* d, int digits) {
  const int64_t v = SubjectOf(r.subject, number, d, digits);
  switch (r.op) {
    case Op::kEq: return v == r.value;
    case Op::kNe: return v != r.value;
    case Op::kLt: return v < r.value;
    case Op::kGt: return v > r.value;
    case Op::kMult: return v % r.value == 0;  // r.value >= 2 (ParsePuzzle)
  }
  return false;
}

void DigitsOf(int64_t number, int digits, int* d) {
  for (int k = digits - 1; k >= 0; --k, number /= 10) d[k] = static_cast<int>(number % 10);
}

// The index of the first rule that `number` (of `digits` digits) breaks, or
// rules.size() when it satisfies them all.
size_t FirstBrokenRule(const std::vector<Rule>& rules, int64_t number, int digits) {
  int d[kMaxDigits];
  DigitsOf(number, digits, d);
  for (size_t k = 0; k < rules.size(); ++k) {
    if (!Holds(rules[k], number, d, digits)) return k;
  }
  return rules.size();
}

// Every rule that `number` breaks, bit k for rule k.
uint32_t BrokenRules(const std::vector<Rule>& rules, int64_t number, int digits) {
  int d[kMaxDigits];
  DigitsOf(number, digits, d);
  uint32_t mask = 0;
  for (size_t k = 0; k < rules.size(); ++k) {
    if (!Holds(rules[k], number, d, digits)) mask |= 1u << k;
  }
  return mask;
}

}  // namespace

bool SatisfiesRules(const std::vector<Rule>& rules, int64_t number, int digits) {
  return FirstBrokenRule(rules, number, digits) == rules.size();
}

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
  // One pass: the set of rules each number breaks. Its lowest rule is the
  // one that removes the number when the rules are applied in order.
  std::vector<int64_t> broken_at(rules + 1, 0);
  std::vector<int64_t> examples;  // the first two survivors
  std::vector<uint32_t> masks;    // of every number but the answer, for the grade
  masks.reserve(static_cast<size_t>(total));
  for (int64_t x = first; x < 10 * first; ++x) {
    const uint32_t mask = BrokenRules(p.rules, x, p.digits);
    const size_t k = mask == 0 ? rules : static_cast<size_t>(__builtin_ctz(mask));
    ++broken_at[k];
    if (k == rules && examples.size() < 2) examples.push_back(x);
    if (x != *answer) masks.push_back(mask);
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
  return RateDifficulty(static_cast<int>(rules), useful,
                        SmallestHittingSet(std::move(masks), static_cast<int>(rules)));
}

}  // namespace foundry::puzzles::secret_number
