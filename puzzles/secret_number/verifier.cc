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

// True when `number` (of `digits` digits) satisfies `r`.
bool Holds(const Rule& r, int64_t number, int digits) {
  int d[8];
  int64_t x = number;
  for (int k = digits - 1; k >= 0; --k, x /= 10) d[k] = static_cast<int>(x % 10);
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

}  // namespace

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  auto answer = ParseSolution(solution, p.digits);
  if (!answer.ok()) return answer.status();

  // Every number of the length, then each rule in order keeps its survivors.
  int64_t first = 1;
  for (int k = 1; k < p.digits; ++k) first *= 10;
  std::vector<int64_t> survivors;
  survivors.reserve(static_cast<size_t>(9 * first));
  for (int64_t x = first; x < 10 * first; ++x) survivors.push_back(x);
  const auto total = static_cast<int64_t>(survivors.size());

  int useful = 0;
  int64_t before_last = total;
  for (size_t k = 0; k < p.rules.size(); ++k) {
    const Rule& r = p.rules[k];
    const size_t before = survivors.size();
    size_t kept = 0;
    for (int64_t x : survivors) {
      if (Holds(r, x, p.digits)) survivors[kept++] = x;
    }
    survivors.resize(kept);
    if (kept == 0) {
      return Status::FailedPrecondition(fmt::format(
          "no number satisfies rules 1 to {}: rule {} ({}) removes the last {} candidates",
          k + 1, k + 1, RuleKey(r), before));
    }
    useful += kept < before;
    before_last = static_cast<int64_t>(before);
  }

  for (size_t k = 0; k < p.rules.size(); ++k) {
    if (!Holds(p.rules[k], *answer, p.digits)) {
      return Status::FailedPrecondition(fmt::format("the solution {} breaks rule {} ({})",
                                                    *answer, k + 1, RuleKey(p.rules[k])));
    }
  }
  if (survivors.size() > 1) {
    return Status::FailedPrecondition(
        fmt::format("{} numbers satisfy all {} rules (e.g. {} and {}): the answer is not unique",
                    survivors.size(), p.rules.size(), survivors[0], survivors[1]));
  }
  if (survivors[0] != *answer) {  // unreachable: the answer satisfies every rule
    return Status::Internal(fmt::format("the only number left is {}, not the solution {}",
                                        survivors[0], *answer));
  }
  return RateDifficulty(static_cast<int>(p.rules.size()), useful, before_last, total);
}

}  // namespace foundry::puzzles::secret_number
