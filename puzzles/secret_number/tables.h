// Precomputed tables of the secret-number generator, one set per digit count.
//
// Numbers of `digits` digits are addressed by their index i = number - first,
// first = 10^(digits-1), so there are N = 9 * first of them. Subjects are
// addressed by a dense index s in [0, subject_count()), laid out as
//   digit:1..d | sum | product | sum:I,J.. | diff:I,J.. | product:I,J.. |
//   number | count_even | count_distinct
// with pairs in lexicographic order (1,2), (1,3), .., (d-1,d).
//
// For N <= kMaxBitsetNumbers (digits 2 and 3) the tables also hold, as bitsets
// over the indices (bit i of word i/64), the numbers whose subject s
//   equals v (EqBits), is below v (LtBits), is a multiple of k (MultBits),
// so a rule filters a candidate set with a few word operations. Larger digit
// counts keep only the per-number values and filter by scanning survivors.
//
// Memory: about 0.6 MB for digits 3 (bitsets), 16 MB for digits 6 (values);
// built in about 0.2 s for digits 6.
//
// Only the generator uses these tables; Verify() recomputes everything from
// the digits on purpose, so a bug here cannot hide from it.
//
// Thread safety: For() builds a digit count's tables once (thread-safe lazy
// initialisation) and they are immutable afterwards; the reference stays
// valid for the life of the program.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "puzzles/secret_number/rules.h"

namespace foundry::puzzles::secret_number {

inline constexpr int64_t kMaxBitsetNumbers = 900;
// 64-bit words of a bitset over the numbers of `digits` digits (2 or 3):
// 90 numbers in 2 words, 900 in 15 words padded to 16, so that a bitset is a
// whole number of 16-byte vector operations.
constexpr int BitsetWords(int digits) { return digits == 2 ? 2 : 16; }
static_assert(BitsetWords(3) * 64 >= kMaxBitsetNumbers);
// Divisors a "mult" rule draws from.
inline constexpr int kMinDivisor = 2;
inline constexpr int kMaxDivisor = 9;

// A rule by its dense subject index in a Tables (the generator's form).
struct IndexedRule {
  int subject = 0;
  Op op = Op::kEq;
  int64_t value = 0;
};

class Tables {
 public:
  // The tables for `digits`. REQUIRES: kMinDigits <= digits <= kMaxDigits.
  static const Tables& For(int digits);

  Tables(const Tables&) = delete;
  Tables& operator=(const Tables&) = delete;

  int digits() const { return digits_; }
  // How many numbers have `digits` digits (no leading zero).
  int64_t size() const { return size_; }
  // The smallest such number (index 0).
  int64_t first_number() const { return first_; }

  // ---- subjects ----
  int subject_count() const { return static_cast<int>(subjects_.size()); }
  const Subject& subject(int s) const { return subjects_[s]; }
  // How many subjects of `kind` exist (d digits, 1 or d(d-1)/2 pairs).
  int KindCount(SubjectKind kind) const { return kind_count_[static_cast<int>(kind)]; }
  // The dense index of the `ordinal`-th subject of `kind`.
  // REQUIRES: 0 <= ordinal < KindCount(kind).
  int SubjectIndex(SubjectKind kind, int ordinal) const {
    return kind_start_[static_cast<int>(kind)] + ordinal;
  }
  // The least and greatest value of subject s over all numbers.
  int64_t min_value(int s) const { return min_[s]; }
  int64_t max_value(int s) const { return max_[s]; }
  // SubjectName() and SubjectPhrase() of subject s, computed once.
  const std::string& name(int s) const { return names_[s]; }
  const std::string& phrase(int s) const { return phrases_[s]; }

  // ---- per-number values (every digit count) ----
  // The value of subject s for the number of index i. REQUIRES: i < size().
  int64_t Value(int s, uint32_t i) const;
  // digits()-many digits of number i, most significant first.
  const uint8_t* DigitsOf(uint32_t i) const { return &digits_of_[size_t{i} * digits_]; }
  const uint8_t* digit_table() const { return digits_of_.data(); }
  const uint8_t* sum_table() const { return sum_.data(); }
  const int32_t* product_table() const { return product_.data(); }
  const uint8_t* count_even_table() const { return count_even_.data(); }
  const uint8_t* count_distinct_table() const { return count_distinct_.data(); }
  // 0, 1, .., size()-1: the full candidate list.
  const std::vector<uint32_t>& all_indices() const { return all_; }

  // ---- bitsets (only when has_bitsets()) ----
  bool has_bitsets() const { return size_ <= kMaxBitsetNumbers; }
  // 64-bit words per bitset; bits at or past size() are zero.
  int words() const { return words_; }
  // Every number.
  const uint64_t* AllBits() const { return Row(1); }
  // Numbers whose subject s equals v (all-zero for v outside the range).
  const uint64_t* EqBits(int s, int64_t v) const;
  // Numbers whose subject s is less than v (any v).
  const uint64_t* LtBits(int s, int64_t v) const;
  // Numbers whose subject s is a multiple of k.
  // REQUIRES: kMinDivisor <= k <= kMaxDivisor.
  const uint64_t* MultBits(int s, int64_t k) const;

 private:
  explicit Tables(int digits);
  void BuildBitsets();
  uint64_t* Row(size_t row) { return &bits_[row * words_]; }
  const uint64_t* Row(size_t row) const { return &bits_[row * words_]; }

  int digits_;
  int64_t size_;
  int64_t first_;
  std::vector<Subject> subjects_;
  int kind_start_[kSubjectKinds] = {};
  int kind_count_[kSubjectKinds] = {};
  std::vector<int64_t> min_, max_;
  std::vector<std::string> names_, phrases_;

  std::vector<uint8_t> digits_of_;  // size_ * digits_
  std::vector<uint8_t> sum_;
  std::vector<int32_t> product_;
  std::vector<uint8_t> count_even_;
  std::vector<uint8_t> count_distinct_;
  std::vector<uint32_t> all_;

  // Bitset rows, words_ words each. Row 0 is all zeros, row 1 all numbers;
  // subject s has (max-min+1) eq rows from eq_row_[s], (max-min+2) lt rows
  // from lt_row_[s] (v = min..max+1), and one mult row per divisor.
  int words_ = 0;
  std::vector<uint64_t> bits_;
  std::vector<size_t> eq_row_, lt_row_, mult_row_;
};

inline const uint64_t* Tables::EqBits(int s, int64_t v) const {
  if (v < min_[s] || v > max_[s]) return Row(0);
  return Row(eq_row_[s] + static_cast<size_t>(v - min_[s]));
}

inline const uint64_t* Tables::LtBits(int s, int64_t v) const {
  if (v <= min_[s]) return Row(0);
  if (v > max_[s]) return Row(1);
  return Row(lt_row_[s] + static_cast<size_t>(v - min_[s]));
}

inline const uint64_t* Tables::MultBits(int s, int64_t k) const {
  assert(k >= kMinDivisor && k <= kMaxDivisor);
  return Row(mult_row_[s] + static_cast<size_t>(k - kMinDivisor));
}

}  // namespace foundry::puzzles::secret_number
