// Rules of the secret-number family: a subject (a figure computed from the
// hidden number's digits), a comparison and a value, as in seed 000
// ("The product of the first two digits" / "is less than" / "25").
//
// Subjects, with their names in the puzzle JSON (positions are 1-based, I < J):
//   digit:K        the K-th digit
//   sum            the sum of all digits
//   product        the product of all digits
//   sum:I,J        the sum of digits I and J
//   diff:I,J       the absolute difference of digits I and J
//   product:I,J    the product of digits I and J
//   number         the number itself
//   count_even     how many digits are even (0 counts as even)
//   count_distinct how many different digits occur
// Ops: eq, ne, lt, gt, mult ("is a multiple of"; value >= 2).
//
// Thread safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace foundry::puzzles::secret_number {

inline constexpr int kMinDigits = 2;
inline constexpr int kMaxDigits = 6;

// Values are stable: generation draws a kind by its index (see generator.cc),
// so renumbering them changes every generated puzzle.
enum class SubjectKind : uint8_t {
  kDigit = 0,
  kSum = 1,
  kProduct = 2,
  kPairSum = 3,
  kPairDiff = 4,
  kPairProduct = 5,
  kNumber = 6,
  kCountEven = 7,
  kCountDistinct = 8,
};
inline constexpr int kSubjectKinds = 9;

// Values are stable for the same reason as SubjectKind.
enum class Op : uint8_t { kEq = 0, kNe = 1, kLt = 2, kGt = 3, kMult = 4 };
inline constexpr int kOps = 5;

struct Subject {
  SubjectKind kind = SubjectKind::kSum;
  // 1-based digit positions: `i` for kDigit, `i` < `j` for the pair kinds,
  // both 0 otherwise.
  uint8_t i = 0;
  uint8_t j = 0;

  friend bool operator==(const Subject&, const Subject&) = default;
};

struct Rule {
  Subject subject;
  Op op = Op::kEq;
  int64_t value = 0;

  friend bool operator==(const Rule&, const Rule&) = default;
};

// True for a kind that names two digit positions.
constexpr bool IsPairKind(SubjectKind k) {
  return k == SubjectKind::kPairSum || k == SubjectKind::kPairDiff ||
         k == SubjectKind::kPairProduct;
}

// "digit:2", "sum", "diff:1,3", ...
std::string SubjectName(const Subject& s);
// Parses a subject name for a number of `digits` digits. Errors
// (InvalidArgument): an unknown name, a malformed or out-of-range position.
Result<Subject> ParseSubject(std::string_view name, int digits);

// "eq", "ne", "lt", "gt", "mult".
std::string_view OpName(Op op);
// Errors (InvalidArgument): not one of the names above.
Result<Op> ParseOp(std::string_view name);

// "sum:1,2 eq 9": the compact form used in canonical bytes and messages.
std::string RuleKey(const Rule& r);

// The subject as the start of a sentence, e.g. "The sum of my first two digits".
std::string SubjectPhrase(const Subject& s, int digits);
// "is", "is not", "is less than", "is greater than", "is a multiple of".
std::string_view OpVerb(Op op);

// "<subject_phrase> <verb> <value>.": RuleText() from a precomputed phrase.
std::string ComposeRuleText(std::string_view subject_phrase, Op op, int64_t value);

// The rule in plain English for a number of `digits` digits, e.g.
// "The difference of my first two digits is 9.".
std::string RuleText(const Rule& r, int digits);

}  // namespace foundry::puzzles::secret_number
