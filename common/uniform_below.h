// Uniform integers in [0, n) from uniform 64-bit words, without modulo bias:
// Lemire's multiply-and-reject. The high word of word * n is the draw; a low
// word below 2^64 mod n marks the biased part, drawn again. One definition
// for the seeded puzzles::Rng (whose draws puzzle ids depend on: it must
// never change) and the unpredictable SecureRandom.
//
// Thread safety: as `next`.
#pragma once

#include <cstdint>

namespace foundry {

// Uniform in [0, n), taking words from `next()`. REQUIRES: n > 0.
template <typename Next>
uint64_t UniformBelow(uint64_t n, Next&& next) {
  unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
  auto low = static_cast<uint64_t>(m);
  if (low < n) {  // the biased part lies below n: most draws skip the division
    const uint64_t threshold = -n % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace foundry
