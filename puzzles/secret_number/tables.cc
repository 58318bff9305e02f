#include "puzzles/secret_number/tables.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <numeric>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::secret_number {

const Tables& Tables::For(int digits) {
  assert(digits >= kMinDigits && digits <= kMaxDigits);
  // Function-local statics: built on first use, thread-safe (C++11 magic
  // statics), immutable afterwards. A digit count nobody asks for costs nothing.
  switch (digits) {
    case 2: {
      static const Tables t(2);
      return t;
    }
    case 3: {
      static const Tables t(3);
      return t;
    }
    case 4: {
      static const Tables t(4);
      return t;
    }
    case 5: {
      static const Tables t(5);
      return t;
    }
    default: {
      static const Tables t(6);
      return t;
    }
  }
}

Tables::Tables(int digits) : digits_(digits) {
  first_ = 1;
  for (int k = 1; k < digits; ++k) first_ *= 10;
  size_ = 9 * first_;

  // Subjects, in the documented dense order.
  const auto add_kind = [&](SubjectKind kind, auto&& add_all) {
    kind_start_[static_cast<int>(kind)] = static_cast<int>(subjects_.size());
    add_all();
    kind_count_[static_cast<int>(kind)] =
        static_cast<int>(subjects_.size()) - kind_start_[static_cast<int>(kind)];
  };
  const auto add_pairs = [&](SubjectKind kind) {
    add_kind(kind, [&] {
      for (int i = 1; i <= digits; ++i) {
        for (int j = i + 1; j <= digits; ++j) {
          subjects_.push_back({kind, static_cast<uint8_t>(i), static_cast<uint8_t>(j)});
        }
      }
    });
  };
  add_kind(SubjectKind::kDigit, [&] {
    for (int i = 1; i <= digits; ++i) {
      subjects_.push_back({SubjectKind::kDigit, static_cast<uint8_t>(i), 0});
    }
  });
  add_kind(SubjectKind::kSum, [&] { subjects_.push_back({SubjectKind::kSum}); });
  add_kind(SubjectKind::kProduct, [&] { subjects_.push_back({SubjectKind::kProduct}); });
  add_pairs(SubjectKind::kPairSum);
  add_pairs(SubjectKind::kPairDiff);
  add_pairs(SubjectKind::kPairProduct);
  add_kind(SubjectKind::kNumber, [&] { subjects_.push_back({SubjectKind::kNumber}); });
  add_kind(SubjectKind::kCountEven, [&] { subjects_.push_back({SubjectKind::kCountEven}); });
  add_kind(SubjectKind::kCountDistinct,
           [&] { subjects_.push_back({SubjectKind::kCountDistinct}); });
  for (const Subject& s : subjects_) {
    names_.push_back(SubjectName(s));
    phrases_.push_back(SubjectPhrase(s, digits));
  }

  // Per-number values.
  const auto n = static_cast<size_t>(size_);
  digits_of_.resize(n * digits);
  sum_.resize(n);
  product_.resize(n);
  count_even_.resize(n);
  count_distinct_.resize(n);
  all_.resize(n);
  std::iota(all_.begin(), all_.end(), 0u);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = first_ + static_cast<int64_t>(i);
    uint8_t* d = &digits_of_[i * digits];
    for (int k = digits - 1; k >= 0; --k, x /= 10) d[k] = static_cast<uint8_t>(x % 10);
    int sum = 0, product = 1, even = 0;
    unsigned seen = 0;
    for (int k = 0; k < digits; ++k) {
      sum += d[k];
      product *= d[k];
      even += d[k] % 2 == 0;
      seen |= 1u << d[k];
    }
    sum_[i] = static_cast<uint8_t>(sum);
    product_[i] = product;
    count_even_[i] = static_cast<uint8_t>(even);
    count_distinct_[i] = static_cast<uint8_t>(BitCount16(seen));
  }

  // Ranges over all numbers.
  const int subjects = subject_count();
  min_.assign(subjects, INT64_MAX);
  max_.assign(subjects, INT64_MIN);
  for (int s = 0; s < subjects; ++s) {
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t v = Value(s, i);
      min_[s] = std::min(min_[s], v);
      max_[s] = std::max(max_[s], v);
    }
  }

  if (has_bitsets()) BuildBitsets();
}

int64_t Tables::Value(int s, uint32_t i) const {
  const Subject& sub = subjects_[s];
  const uint8_t* d = DigitsOf(i);
  switch (sub.kind) {
    case SubjectKind::kDigit:
      return d[sub.i - 1];
    case SubjectKind::kSum:
      return sum_[i];
    case SubjectKind::kProduct:
      return product_[i];
    case SubjectKind::kPairSum:
      return d[sub.i - 1] + d[sub.j - 1];
    case SubjectKind::kPairDiff:
      return std::abs(d[sub.i - 1] - d[sub.j - 1]);
    case SubjectKind::kPairProduct:
      return d[sub.i - 1] * d[sub.j - 1];
    case SubjectKind::kNumber:
      return first_ + i;
    case SubjectKind::kCountEven:
      return count_even_[i];
    case SubjectKind::kCountDistinct:
      return count_distinct_[i];
  }
  return 0;
}

void Tables::BuildBitsets() {
  words_ = BitsetWords(digits_);
  assert(words_ * 64 >= size_);
  const int subjects = subject_count();
  // Rows 0 (empty) and 1 (every number), then each subject's rows.
  size_t rows = 2;
  eq_row_.resize(subjects);
  lt_row_.resize(subjects);
  mult_row_.resize(subjects);
  for (int s = 0; s < subjects; ++s) {
    const auto span = static_cast<size_t>(max_[s] - min_[s] + 1);
    eq_row_[s] = rows;
    rows += span;
    lt_row_[s] = rows;
    rows += span + 1;
    mult_row_[s] = rows;
    rows += kMaxDivisor - kMinDivisor + 1;
  }
  bits_.assign(rows * words_, 0);
  for (uint32_t i = 0; i < size_; ++i) Row(1)[i / 64] |= uint64_t{1} << (i % 64);

  for (int s = 0; s < subjects; ++s) {
    const int64_t lo = min_[s];
    const auto span = static_cast<size_t>(max_[s] - lo + 1);
    for (uint32_t i = 0; i < size_; ++i) {
      const int64_t v = Value(s, i);
      const uint64_t bit = uint64_t{1} << (i % 64);
      Row(eq_row_[s] + static_cast<size_t>(v - lo))[i / 64] |= bit;
      // v < t for every threshold t in (v, max+1].
      for (size_t t = static_cast<size_t>(v - lo) + 1; t <= span; ++t) {
        Row(lt_row_[s] + t)[i / 64] |= bit;
      }
      for (int k = kMinDivisor; k <= kMaxDivisor; ++k) {
        if (v % k == 0) Row(mult_row_[s] + (k - kMinDivisor))[i / 64] |= bit;
      }
    }
  }
}

}  // namespace foundry::puzzles::secret_number
