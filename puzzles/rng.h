// Deterministic random numbers for puzzle generation.
//
// Candidate i of a campaign is generated from CandidateRng(seed, i) and from
// nothing else, so any worker, thread count, job size or retry reproduces it.
// The generator is xoshiro256** seeded through SplitMix64; bounded integers
// use Lemire's multiply-shift rejection method. Both are fixed here rather
// than taken from <random> because the standard distributions are allowed to
// differ between library versions, and puzzle ids must not.
//
// Thread safety: an Rng is a value owned by one thread.
#pragma once

#include <cstdint>

#include "common/uniform_below.h"

namespace foundry::puzzles {

// One SplitMix64 step: a strong 64-bit mix of `x`.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) {
      x += 0x9e3779b97f4a7c15ULL;
      s = SplitMix64(x);
    }
  }

  // The next 64 uniformly distributed bits.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n) {
    return UniformBelow(n, [this] { return Next(); });
  }

  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  int64_t Between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Below(static_cast<uint64_t>(hi - lo) + 1));
  }

  // True with probability p.
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// The generator for candidate `index` of a campaign with `campaign_seed`.
inline Rng CandidateRng(uint64_t campaign_seed, uint64_t index) {
  return Rng(SplitMix64(SplitMix64(campaign_seed) ^ index));
}

}  // namespace foundry::puzzles
