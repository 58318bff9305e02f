#include "puzzles/secret_number/verifier.h"

#include <algorithm>
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

// Numbers [x0, x0 + n) as columns of decimal digits: d[k][i] is digit k
// (most significant first) of x0 + i. Verify walks all numbers of the
// length a chunk at a time and each rule over a whole chunk, so the
// subject's switch runs once per chunk and the inner loops are plain
// arithmetic over arrays (3x faster than a rule at a time per number).
constexpr int kChunk = 256;
struct Chunk {
  int64_t x0 = 0;
  int n = 0;
  int32_t d[kMaxDigits][kChunk];
};

void FillDigits(Chunk& c, int digits) {
  for (int i = 0; i < c.n; ++i) {
    int64_t x = c.x0 + i;
    for (int k = digits - 1; k >= 0; --k, x /= 10) c.d[k][i] = static_cast<int32_t>(x % 10);
  }
}

// v[i] = the subject of `s` for number c.x0 + i, as SubjectOf computes it.
void SubjectValues(const Subject& s, const Chunk& c, int digits, int64_t* v) {
  const int n = c.n;
  const int32_t* a = s.i > 0 ? c.d[s.i - 1] : nullptr;
  const int32_t* b = s.j > 0 ? c.d[s.j - 1] : nullptr;
  switch (s.kind) {
    case SubjectKind::kDigit:
      for (int i = 0; i < n; ++i) v[i] = a[i];
      return;
    case SubjectKind::kSum:
      std::fill(v, v + n, 0);
      for (int k = 0; k < digits; ++k) {
        for (int i = 0; i < n; ++i) v[i] += c.d[k][i];
      }
      return;
    case SubjectKind::kProduct:
      std::fill(v, v + n, 1);
      for (int k = 0; k < digits; ++k) {
        for (int i = 0; i < n; ++i) v[i] *= c.d[k][i];
      }
      return;
    case SubjectKind::kPairSum:
      for (int i = 0; i < n; ++i) v[i] = a[i] + b[i];
      return;
    case SubjectKind::kPairDiff:
      for (int i = 0; i < n; ++i) v[i] = std::abs(a[i] - b[i]);
      return;
    case SubjectKind::kPairProduct:
      for (int i = 0; i < n; ++i) v[i] = a[i] * b[i];
      return;
    case SubjectKind::kNumber:
      for (int i = 0; i < n; ++i) v[i] = c.x0 + i;
      return;
    case SubjectKind::kCountEven:
      std::fill(v, v + n, 0);
      for (int k = 0; k < digits; ++k) {
        for (int i = 0; i < n; ++i) v[i] += (c.d[k][i] & 1) == 0;
      }
      return;
    case SubjectKind::kCountDistinct:
      for (int i = 0; i < n; ++i) {
        uint32_t seen = 0;
        for (int k = 0; k < digits; ++k) seen |= 1u << c.d[k][i];
        v[i] = __builtin_popcount(seen);
      }
      return;
  }
}

// mask[i] |= bit for every i whose subject value v[i] breaks rule r (as
// Holds decides).
void MarkBroken(const Rule& r, const int64_t* v, int n, uint32_t bit, uint32_t* mask) {
  const int64_t value = r.value;
  switch (r.op) {
    case Op::kEq:
      for (int i = 0; i < n; ++i) mask[i] |= v[i] != value ? bit : 0;
      return;
    case Op::kNe:
      for (int i = 0; i < n; ++i) mask[i] |= v[i] == value ? bit : 0;
      return;
    case Op::kLt:
      for (int i = 0; i < n; ++i) mask[i] |= v[i] >= value ? bit : 0;
      return;
    case Op::kGt:
      for (int i = 0; i < n; ++i) mask[i] |= v[i] <= value ? bit : 0;
      return;
    case Op::kMult:  // value >= 2 (ParsePuzzle)
      for (int i = 0; i < n; ++i) mask[i] |= v[i] % value != 0 ? bit : 0;
      return;
  }
}

// The distinct masks the grade needs. Up to 16 rules a seen-table keeps
// each once as it comes (the grade sorts and dedupes what it gets: with
// every number's mask that sort was a fifth of Verify); above, all go in.
class MaskCollector {
 public:
  explicit MaskCollector(size_t rules) : seen_(rules <= 16 ? size_t{1} << rules : 0, false) {}
  void Add(uint32_t mask) {
    if (!seen_.empty()) {
      if (seen_[mask]) return;
      seen_[mask] = true;
    }
    masks_.push_back(mask);
  }
  std::vector<uint32_t> Take() { return std::move(masks_); }

 private:
  std::vector<bool> seen_;
  std::vector<uint32_t> masks_;
};

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
  MaskCollector masks(rules);     // of every number but the answer, for the grade
  Chunk chunk;
  int64_t values[kChunk];
  for (int64_t x0 = first; x0 < 10 * first; x0 += kChunk) {
    chunk.x0 = x0;
    chunk.n = static_cast<int>(std::min<int64_t>(kChunk, 10 * first - x0));
    FillDigits(chunk, p.digits);
    uint32_t mask[kChunk] = {};
    for (size_t k = 0; k < rules; ++k) {
      SubjectValues(p.rules[k].subject, chunk, p.digits, values);
      MarkBroken(p.rules[k], values, chunk.n, 1u << k, mask);
    }
    for (int i = 0; i < chunk.n; ++i) {
      const size_t k = mask[i] == 0 ? rules : static_cast<size_t>(__builtin_ctz(mask[i]));
      ++broken_at[k];
      if (k == rules && examples.size() < 2) examples.push_back(x0 + i);
      if (x0 + i != *answer) masks.Add(mask[i]);
    }
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
                        SmallestHittingSet(masks.Take(), static_cast<int>(rules)));
}

}  // namespace foundry::puzzles::secret_number
