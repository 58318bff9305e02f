// Codes of the bulls-cows family and their scores (seed 003, the forward
// problem): a code is `length` distinct decimal digits; guess g against
// secret s scores one bull per digit in the same position and one cow per
// digit of g present in s elsewhere (1953 vs 1235 -> 1 bull, 2 cows).
//
// A Universe holds every code of one length in ascending numeric order
// (leading zero included: 720, 5040, 30240, 151200 codes for lengths 3..6)
// and, for the leading_zero setting, the indices of the codes that may be a
// secret (4536 of the 5040 at length 4 without a leading zero, as in the
// seed). Guesses of the generator and of the strategies are drawn from the
// same allowed codes. For lengths 3 and 4 the universe precomputes the score
// of every (guess, secret) pair, one byte each (25 MB at length 4); longer
// codes are scored on the fly by a few bit operations.
//
// Thread safety: For() builds a universe once (thread-safe lazy statics) and
// it is immutable afterwards; references stay valid for the whole program.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::bulls_cows {

inline constexpr int kMinLength = 3;
inline constexpr int kMaxLength = 6;
// A score as one small number: bulls * kScoreBase + cows, below kScoreSlots.
inline constexpr int kScoreBase = kMaxLength + 1;
inline constexpr int kScoreSlots = kScoreBase * kScoreBase;
constexpr int MakeScore(int bulls, int cows) { return bulls * kScoreBase + cows; }
constexpr int BullsOf(int score) { return score / kScoreBase; }
constexpr int CowsOf(int score) { return score % kScoreBase; }

// One code: digit k in bits 4k..4k+3 of `packed` (k = 0 is the first
// digit), and bit d of `mask` set for every digit d it holds.
struct Code {
  uint32_t packed = 0;
  uint16_t mask = 0;
};

// The score of guess `g` against secret `s`, both of `length` digits.
inline int ScoreCodes(Code g, Code s, int length) {
  const int common = BitCount16(static_cast<uint32_t>(g.mask & s.mask));
  // A nibble of x is zero exactly where the digits agree.
  uint32_t x = g.packed ^ s.packed;
  x |= x >> 2;
  x |= x >> 1;
  const uint32_t low = (1u << (4 * length)) - 1;
  const int differ = NibbleLowBitCount(x & 0x11111111u & low);
  const int bulls = length - differ;
  return MakeScore(bulls, common - bulls);
}

class Universe {
 public:
  // REQUIRES: kMinLength <= length <= kMaxLength.
  static const Universe& For(int length, bool leading_zero);

  Universe(const Universe&) = delete;
  Universe& operator=(const Universe&) = delete;

  int length() const { return length_; }
  bool leading_zero() const { return leading_zero_; }
  // Every code of the length, ascending (shared by both leading_zero settings).
  const std::vector<Code>& codes() const { return *codes_; }
  // Indices into codes() of the allowed secrets (and guesses), ascending.
  const std::vector<uint32_t>& allowed() const { return allowed_; }
  // The score meaning "every digit a bull".
  int win_score() const { return MakeScore(length_, 0); }

  // The score of codes()[g] against codes()[s].
  int Score(uint32_t g, uint32_t s) const {
    if (table_ != nullptr) return (*table_)[size_t{g} * codes_->size() + s];
    return ScoreCodes((*codes_)[g], (*codes_)[s], length_);
  }
  // The row of precomputed scores of guess g (indexed by secret), or null
  // for lengths above 4.
  const uint8_t* ScoreRow(uint32_t g) const {
    return table_ == nullptr ? nullptr : table_->data() + size_t{g} * codes_->size();
  }

  // "0123" for an index.
  std::string Text(uint32_t index) const;
  // The index of a code written as `length` distinct digits; -1 if `text`
  // is not one (wrong length, a non-digit, a repeated digit).
  int64_t Find(std::string_view text) const;

 private:
  struct Shared;  // the codes of one length, their numeric values, the table
  Universe(int length, bool leading_zero, const Shared& shared);
  static const Shared& SharedFor(int length);

  int length_;
  bool leading_zero_;
  const std::vector<Code>* codes_;
  const std::vector<uint32_t>* values_;  // the codes as numbers, ascending
  const std::vector<uint8_t>* table_;    // null above length 4
  std::vector<uint32_t> allowed_;
};

}  // namespace foundry::puzzles::bulls_cows
