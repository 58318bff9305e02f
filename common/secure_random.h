// Random bits that someone who has seen earlier ones cannot predict: the
// operating system's cryptographic generator, through OpenSSL's RAND_bytes.
//
// For what a worker or a client must not guess: lease ids (a lease id is the
// only credential of a submission) and which indices a spot check
// re-generates. puzzles::Rng (xoshiro256**, seeded) stays the source of
// everything that must repeat from a seed; it is not for secrets: its state
// follows from its outputs, and SplitMix64 is a bijection.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/uniform_below.h"

namespace foundry {

// 64 random bits. Throws std::runtime_error when the generator fails: an
// id that could be guessed is worse than a refused request.
uint64_t SecureRandom64();

// `bytes` random bytes as 2 * bytes lowercase hex digits. Throws as above.
std::string SecureRandomHex(size_t bytes);

// A source of unpredictable numbers with the interface of puzzles::Rng's
// uniform draws, for code that samples (a spot check's indices).
class SecureRandom {
 public:
  // 64 random bits (SecureRandom64).
  uint64_t Next() { return SecureRandom64(); }

  // Uniform in [0, n), without modulo bias. REQUIRES: n > 0.
  uint64_t Below(uint64_t n) {
    return UniformBelow(n, [this] { return Next(); });
  }
};

}  // namespace foundry
