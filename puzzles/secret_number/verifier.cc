#include "puzzles/secret_number/verifier.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "puzzles/bit_count.h"
#include "puzzles/secret_number/codec.h"
#include "puzzles/secret_number/difficulty.h"
#include "puzzles/secret_number/rules.h"

namespace foundry::puzzles::secret_number {
namespace {

// Numbers [x0, x0 + n) as columns of decimal digits: d[k][i] is digit k
// (most significant first) of x0 + i. Verify walks all numbers of the
// length a chunk at a time and each rule over a whole chunk, so the
// subject's switch runs once per chunk and the inner loops are plain
// arithmetic over arrays (Verify 2.3x faster than a rule at a time per
// number; docs/benchmarks.md). A single number is a chunk of one.
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

// v[i] = the subject of `s` for number c.x0 + i.
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
        v[i] = BitCount16(seen);
      }
      return;
  }
}

// mask[i] |= bit for every i whose subject value v[i] breaks rule r.
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

// mask[i]: bit k set when number c.x0 + i breaks rule k. Fills c's digits.
void BrokenMasks(const std::vector<Rule>& rules, Chunk& c, int digits, uint32_t* mask) {
  FillDigits(c, digits);
  std::fill(mask, mask + c.n, 0u);
  int64_t values[kChunk];
  for (size_t k = 0; k < rules.size(); ++k) {
    SubjectValues(rules[k].subject, c, digits, values);
    MarkBroken(rules[k], values, c.n, 1u << k, mask);
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
  Chunk one;
  one.x0 = number;
  one.n = 1;
  uint32_t mask = 0;
  BrokenMasks(rules, one, digits, &mask);
  return mask == 0;
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
  size_t answer_breaks = rules;   // the first rule the answer breaks, if any
  Chunk chunk;
  uint32_t mask[kChunk];
  for (int64_t x0 = first; x0 < 10 * first; x0 += kChunk) {
    chunk.x0 = x0;
    chunk.n = static_cast<int>(std::min<int64_t>(kChunk, 10 * first - x0));
    BrokenMasks(p.rules, chunk, p.digits, mask);
    for (int i = 0; i < chunk.n; ++i) {
      const size_t k = mask[i] == 0 ? rules : static_cast<size_t>(__builtin_ctz(mask[i]));
      ++broken_at[k];
      if (k == rules && examples.size() < 2) examples.push_back(x0 + i);
      if (x0 + i == *answer) {
        answer_breaks = k;
      } else {
        masks.Add(mask[i]);
      }
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
          "no number satisfies rules 1 to {}: rule {} ({}) removes the last {} candidates", k + 1,
          k + 1, RuleKey(p.rules[k]), before_last));
    }
  }
  if (answer_breaks < rules) {
    return Status::FailedPrecondition(fmt::format("the solution {} breaks rule {} ({})", *answer,
                                                  answer_breaks + 1,
                                                  RuleKey(p.rules[answer_breaks])));
  }
  if (left > 1) {
    return Status::FailedPrecondition(
        fmt::format("{} numbers satisfy all {} rules (e.g. {} and {}): the answer is not unique",
                    left, rules, examples[0], examples[1]));
  }
  if (examples[0] != *answer) {  // unreachable: the answer satisfies every rule
    return Status::Internal(
        fmt::format("the only number left is {}, not the solution {}", examples[0], *answer));
  }
  return RateDifficulty(static_cast<int>(rules), useful,
                        SmallestHittingSet(masks.Take(), static_cast<int>(rules)));
}

}  // namespace foundry::puzzles::secret_number
