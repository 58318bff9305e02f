// The numbers still consistent with the rules drawn so far, during generation.
//
// Two representations with one interface, so the generator is written once
// (a template over the set type):
//   BitCandidates  a bitset over the number indices; a rule is a few word
//                  operations against the precomputed Tables rows. Only for
//                  Tables::has_bitsets() (digits 2 and 3: 2 or 16 words).
//   ListCandidates a list of surviving indices; a rule scans only the
//                  survivors. For every digit count (used for 4..6).
// Both start with every number of the table's digit count.
//
// Usage: Trial(rule) computes the survivors of one more rule without changing
// the set and says whether they are none, all of the set, or fewer; Commit()
// then keeps them, or another Trial() discards them. Counting is deferred
// (a bitset count costs more than the rule): the generator only needs to
// know when one candidate is left, and at the end how many the last rule
// split (PreviousSize()).
//
// Thread safety: a set is owned by one thread; the Tables it reads are
// immutable and shared.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "puzzles/secret_number/rules.h"
#include "puzzles/secret_number/tables.h"

namespace foundry::puzzles::secret_number {

// What one more rule would do to a candidate set.
enum class TrialResult {
  kEmpty,      // no candidate would be left
  kUnchanged,  // every candidate would stay (the rule is redundant)
  kReduced,    // some, not all, would stay
};

// kWords is BitsetWords(digits) of the tables, so the loops unroll fully.
template <int kWords>
class BitCandidates {
 public:
  // REQUIRES: tables.has_bitsets(), tables.words() == kWords; `tables`
  // outlives the set.
  explicit BitCandidates(const Tables& tables);

  // True when exactly one candidate is left.
  bool single() const { return single_; }
  // REQUIRES: for kMult, kMinDivisor <= r.value <= kMaxDivisor.
  TrialResult Trial(const IndexedRule& r);
  // REQUIRES: the last Trial() since the last Commit() returned kReduced or
  // kUnchanged.
  void Commit();
  // The size of the set before the last Commit() (all numbers if none).
  // REQUIRES: no Trial() since the last Commit().
  int64_t PreviousSize() const;
  // The size of the set now, and of the survivors of the last Trial()
  // (a popcount each: only the aimed generation asks).
  // REQUIRES for TrialSize(): a Trial() since the last Commit().
  int64_t Size() const;
  int64_t TrialSize() const;
  // The one number left. REQUIRES: single().
  int64_t OnlyNumber() const;

 private:
  const Tables& tables_;
  int cur_ = 0;  // bits_[cur_] is the set, bits_[1 - cur_] the trial
  alignas(16) std::array<uint64_t, kWords> bits_[2] = {};
  bool single_ = false;
  bool committed_ = false;
};

extern template class BitCandidates<BitsetWords(2)>;
extern template class BitCandidates<BitsetWords(3)>;

class ListCandidates {
 public:
  // REQUIRES: `tables` outlives the set.
  explicit ListCandidates(const Tables& tables);

  bool single() const { return cur_.size() == 1; }
  // REQUIRES: for kMult, r.value >= kMinDivisor.
  TrialResult Trial(const IndexedRule& r);
  // REQUIRES: as BitCandidates::Commit().
  void Commit();
  // REQUIRES: as BitCandidates::PreviousSize().
  int64_t PreviousSize() const { return static_cast<int64_t>(previous_size_); }
  // REQUIRES: as BitCandidates::Size() and TrialSize().
  int64_t Size() const { return static_cast<int64_t>(cur_.size()); }
  int64_t TrialSize() const { return static_cast<int64_t>(trial_count_); }
  // The one number left. REQUIRES: single().
  int64_t OnlyNumber() const;

 private:
  const Tables& tables_;
  std::span<const uint32_t> cur_;  // into tables_.all_indices() or a buffer
  // Two buffers of at least cur_.size() entries: the one cur_ is not in gets
  // the trial survivors.
  std::unique_ptr<uint32_t[]> buf_[2];
  size_t buf_size_[2] = {0, 0};
  int trial_buf_ = 0;
  size_t trial_count_ = 0;
  size_t previous_size_;
};

}  // namespace foundry::puzzles::secret_number
