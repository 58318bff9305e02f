// SecretNumberEffort: the candidates a player who filters in the puzzle's
// own order still holds after each rule, summed. Start with every number of
// `digits` digits (no leading zero); take the rules as listed, and after
// rule t count the numbers that satisfy rules 1..t; the figure is the sum of
// those counts over all rules (the last one, 1, included). It is the work of
// a plain solver that crosses out numbers rule by rule without choosing a
// clever order: a few strong rules early keep it small; many weak rules that
// only pin the number together keep many candidates alive for long.
//
// Independent of the grade (the smallest subset of rules, difficulty.h) and
// of the generator's tables and the verifier: every subject is computed here
// from the digits, by its definition (rules.h); only the JSON reader
// (codec.h) is shared. An error when the rules do not leave exactly the
// solution.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/secret_number/codec.h"

namespace foundry::bench {
namespace {

using puzzles::secret_number::Op;
using puzzles::secret_number::Rule;
using puzzles::secret_number::SubjectKind;

// The rule's subject for the number whose digits are `d` (most significant
// first), by the definitions in rules.h.
int64_t SubjectValue(const Rule& r, const std::vector<int>& d, int64_t number) {
  const int i = r.subject.i - 1, j = r.subject.j - 1;
  switch (r.subject.kind) {
    case SubjectKind::kDigit:
      return d[i];
    case SubjectKind::kSum: {
      int64_t s = 0;
      for (int x : d) s += x;
      return s;
    }
    case SubjectKind::kProduct: {
      int64_t p = 1;
      for (int x : d) p *= x;
      return p;
    }
    case SubjectKind::kPairSum:
      return d[i] + d[j];
    case SubjectKind::kPairDiff:
      return std::abs(d[i] - d[j]);
    case SubjectKind::kPairProduct:
      return d[i] * d[j];
    case SubjectKind::kNumber:
      return number;
    case SubjectKind::kCountEven: {
      int64_t n = 0;
      for (int x : d) n += x % 2 == 0;
      return n;
    }
    case SubjectKind::kCountDistinct: {
      int seen = 0;
      for (int x : d) seen |= 1 << x;
      return __builtin_popcount(seen);
    }
  }
  return 0;
}

bool Holds(const Rule& r, const std::vector<int>& d, int64_t number) {
  const int64_t v = SubjectValue(r, d, number);
  switch (r.op) {
    case Op::kEq:
      return v == r.value;
    case Op::kNe:
      return v != r.value;
    case Op::kLt:
      return v < r.value;
    case Op::kGt:
      return v > r.value;
    case Op::kMult:
      return v % r.value == 0;
  }
  return false;
}

Result<double> SecretNumberEffort(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = puzzles::secret_number::ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto answer = puzzles::secret_number::ParseSolution(solution, p->digits);
  if (!answer.ok()) return answer.status();
  int64_t first = 1;
  for (int k = 1; k < p->digits; ++k) first *= 10;
  std::vector<int64_t> alive;
  for (int64_t n = first; n < 10 * first; ++n) alive.push_back(n);
  std::vector<int> d(static_cast<size_t>(p->digits));
  double sum = 0;
  for (const Rule& r : p->rules) {
    std::vector<int64_t> kept;
    for (int64_t n : alive) {
      int64_t x = n;
      for (int k = p->digits - 1; k >= 0; --k, x /= 10)
        d[static_cast<size_t>(k)] = static_cast<int>(x % 10);
      if (Holds(r, d, n)) kept.push_back(n);
    }
    alive.swap(kept);
    sum += static_cast<double>(alive.size());
  }
  if (alive.size() != 1 || alive[0] != *answer) {
    return Status::FailedPrecondition("the rules do not leave exactly the solution");
  }
  return sum;
}

const bool kRegistered =
    RegisterEffort({"secret-number", "candidates left, listed order, summed", &SecretNumberEffort});

}  // namespace
}  // namespace foundry::bench
