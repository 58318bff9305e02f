#include "puzzles/secret_number/candidate_set.h"

#include <bit>
#include <cassert>
#include <cstdlib>
#include <cstring>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::secret_number {

// ---- BitCandidates ----

namespace {
// Two 64-bit words as one vector register (GCC/Clang vector extension).
using Words2 = uint64_t __attribute__((vector_size(16)));
}  // namespace

template <int kWords>
BitCandidates<kWords>::BitCandidates(const Tables& tables) : tables_(tables) {
  assert(tables.has_bitsets() && tables.words() == kWords);
  const uint64_t* all = tables.AllBits();
  for (int w = 0; w < kWords; ++w) bits_[0][w] = all[w];
}

template <int kWords>
TrialResult BitCandidates<kWords>::Trial(const IndexedRule& r) {
  // Every op is `set & row` or `set & ~row` for one precomputed row.
  const uint64_t* row = nullptr;
  uint64_t flip = 0;
  switch (r.op) {
    case Op::kEq:
      row = tables_.EqBits(r.subject, r.value);
      break;
    case Op::kNe:
      row = tables_.EqBits(r.subject, r.value);
      flip = ~uint64_t{0};
      break;
    case Op::kLt:
      row = tables_.LtBits(r.subject, r.value);
      break;
    case Op::kGt:  // value > v  <=>  !(value < v + 1)
      row = tables_.LtBits(r.subject, r.value + 1);
      flip = ~uint64_t{0};
      break;
    case Op::kMult:
      row = tables_.MultBits(r.subject, r.value);
      break;
  }
  const uint64_t* cur = bits_[cur_].data();
  uint64_t* out = bits_[1 - cur_].data();
  // Two words at a time (SSE2, in every x86-64), the padding bits stay zero
  // because cur's are. any: a survivor is left; removed: a candidate goes.
  static_assert(kWords % 2 == 0);
  const Words2 flip2 = {flip, flip};
  Words2 any = {0, 0}, removed = {0, 0};
  for (int w = 0; w < kWords; w += 2) {
    Words2 c, x;
    std::memcpy(&c, cur + w, sizeof c);
    std::memcpy(&x, row + w, sizeof x);
    x = c & (x ^ flip2);
    std::memcpy(out + w, &x, sizeof x);
    any |= x;
    removed |= x ^ c;
  }
  if ((any[0] | any[1]) == 0) return TrialResult::kEmpty;
  return (removed[0] | removed[1]) == 0 ? TrialResult::kUnchanged : TrialResult::kReduced;
}

// Most draws are tried and dropped, few committed: the "exactly one left"
// test lives here rather than in Trial().
template <int kWords>
void BitCandidates<kWords>::Commit() {
  cur_ = 1 - cur_;
  committed_ = true;
  // One candidate: the first nonzero word has one bit and no word follows
  // with any. Exits early on the common case of many candidates.
  const uint64_t* bits = bits_[cur_].data();
  int w = 0;
  while (bits[w] == 0) ++w;  // the set is not empty
  single_ = (bits[w] & (bits[w] - 1)) == 0;
  for (++w; single_ && w < kWords; ++w) single_ = bits[w] == 0;
}

template <int kWords>
int64_t BitCandidates<kWords>::PreviousSize() const {
  if (!committed_) return tables_.size();
  int64_t count = 0;
  for (int w = 0; w < kWords; ++w) count += BitCount64(bits_[1 - cur_][w]);
  return count;
}

template <int kWords>
int64_t BitCandidates<kWords>::Size() const {
  int64_t count = 0;
  for (int w = 0; w < kWords; ++w) count += BitCount64(bits_[cur_][w]);
  return count;
}

template <int kWords>
int64_t BitCandidates<kWords>::TrialSize() const {
  int64_t count = 0;
  for (int w = 0; w < kWords; ++w) count += BitCount64(bits_[1 - cur_][w]);
  return count;
}

template <int kWords>
int64_t BitCandidates<kWords>::OnlyNumber() const {
  assert(single_);
  for (int w = 0; w < kWords; ++w) {
    if (bits_[cur_][w] != 0) {
      return tables_.first_number() + 64 * w + std::countr_zero(bits_[cur_][w]);
    }
  }
  return -1;
}

template class BitCandidates<BitsetWords(2)>;
template class BitCandidates<BitsetWords(3)>;

// ---- ListCandidates ----

namespace {

// Copies into `out` the indices of `in` whose value satisfies `op value`;
// returns how many. Branch-free: every index is written, the count advances
// only for a survivor.
template <typename ValueOf>
size_t FilterOp(std::span<const uint32_t> in, uint32_t* out, Op op, int64_t value,
                ValueOf value_of) {
  size_t n = 0;
  switch (op) {
    case Op::kEq:
      for (uint32_t i : in) {
        out[n] = i;
        n += value_of(i) == value;
      }
      break;
    case Op::kNe:
      for (uint32_t i : in) {
        out[n] = i;
        n += value_of(i) != value;
      }
      break;
    case Op::kLt:
      for (uint32_t i : in) {
        out[n] = i;
        n += value_of(i) < value;
      }
      break;
    case Op::kGt:
      for (uint32_t i : in) {
        out[n] = i;
        n += value_of(i) > value;
      }
      break;
    case Op::kMult:
      for (uint32_t i : in) {
        out[n] = i;
        n += value_of(i) % value == 0;
      }
      break;
  }
  return n;
}

// FilterOp with the value getter specialised per subject kind, so the inner
// loop has no switch.
size_t Filter(const Tables& t, const IndexedRule& r, std::span<const uint32_t> in, uint32_t* out) {
  const Subject& s = t.subject(r.subject);
  const size_t stride = static_cast<size_t>(t.digits());
  const uint8_t* d = t.digit_table();
  const uint8_t* di = d + (s.i > 0 ? s.i - 1 : 0);
  const uint8_t* dj = d + (s.j > 0 ? s.j - 1 : 0);
  switch (s.kind) {
    case SubjectKind::kDigit:
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return int64_t{di[i * stride]}; });
    case SubjectKind::kSum: {
      const uint8_t* v = t.sum_table();
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return int64_t{v[i]}; });
    }
    case SubjectKind::kProduct: {
      const int32_t* v = t.product_table();
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return int64_t{v[i]}; });
    }
    case SubjectKind::kPairSum:
      return FilterOp(in, out, r.op, r.value,
                      [=](uint32_t i) { return int64_t{di[i * stride]} + dj[i * stride]; });
    case SubjectKind::kPairDiff:
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) {
        return int64_t{std::abs(di[i * stride] - dj[i * stride])};
      });
    case SubjectKind::kPairProduct:
      return FilterOp(in, out, r.op, r.value,
                      [=](uint32_t i) { return int64_t{di[i * stride]} * dj[i * stride]; });
    case SubjectKind::kNumber: {
      const int64_t first = t.first_number();
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return first + i; });
    }
    case SubjectKind::kCountEven: {
      const uint8_t* v = t.count_even_table();
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return int64_t{v[i]}; });
    }
    case SubjectKind::kCountDistinct: {
      const uint8_t* v = t.count_distinct_table();
      return FilterOp(in, out, r.op, r.value, [=](uint32_t i) { return int64_t{v[i]}; });
    }
  }
  return 0;
}

}  // namespace

ListCandidates::ListCandidates(const Tables& tables)
    : tables_(tables), cur_(tables.all_indices()), previous_size_(cur_.size()) {}

TrialResult ListCandidates::Trial(const IndexedRule& r) {
  assert(r.op != Op::kMult || r.value >= kMinDivisor);
  // The trial buffer is whichever one cur_ does not live in.
  trial_buf_ = (buf_[0] && cur_.data() == buf_[0].get()) ? 1 : 0;
  if (buf_size_[trial_buf_] < cur_.size()) {
    buf_[trial_buf_].reset(new uint32_t[cur_.size()]);
    buf_size_[trial_buf_] = cur_.size();
  }
  trial_count_ = Filter(tables_, r, cur_, buf_[trial_buf_].get());
  if (trial_count_ == 0) return TrialResult::kEmpty;
  return trial_count_ == cur_.size() ? TrialResult::kUnchanged : TrialResult::kReduced;
}

void ListCandidates::Commit() {
  previous_size_ = cur_.size();
  cur_ = {buf_[trial_buf_].get(), trial_count_};
}

int64_t ListCandidates::OnlyNumber() const {
  assert(single());
  return tables_.first_number() + cur_[0];
}

}  // namespace foundry::puzzles::secret_number
