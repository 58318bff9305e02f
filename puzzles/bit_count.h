// Bit counts for the families' masks. The build targets any x86-64,
// where std::popcount is a call into libgcc (no popcnt instruction assumed);
// these stay inline.
#pragma once

#include <array>
#include <cstdint>

namespace foundry::puzzles {

// Bits set in `x`, any 64-bit word (the byte sums added by one multiply).
constexpr int BitCount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return static_cast<int>((x * 0x0101010101010101u) >> 56);
}

// Bits set in the low 16 bits of `x` (higher bits must be clear).
constexpr int BitCount16(uint32_t x) {
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0f0fu;
  return static_cast<int>((x + (x >> 8)) & 0x1fu);
}

// Bits set in each value below 512 (a 9x9 sudoku's candidate masks): one
// load from a table in the first-level cache instead of BitCount16's dozen
// operations, for the hottest loops.
inline constexpr std::array<uint8_t, 512> kBitCount9 = [] {
  std::array<uint8_t, 512> t{};
  for (unsigned x = 1; x < 512; ++x) t[x] = static_cast<uint8_t>(t[x >> 1] + (x & 1));
  return t;
}();

// Bits set in a mask of at most `Bits` bits (a sudoku unit's digits or
// cells), as a function object: by kBitCount9's table up to nine bits.
template <int Bits>
struct MaskBitCount {
  static_assert(Bits <= 16);
  constexpr int operator()(uint32_t m) const {
    if constexpr (Bits <= 9) {
      return kBitCount9[m];
    } else {
      return BitCount16(m);
    }
  }
};

// Nibbles of `x` whose lowest bit is set: `x` may have bits only at
// positions 0, 4, 8, ..., 28, and the multiplication sums them into the top
// nibble.
constexpr int NibbleLowBitCount(uint32_t x) { return static_cast<int>((x * 0x11111111u) >> 28); }

static_assert(BitCount64(0) == 0 && BitCount64(~uint64_t{0}) == 64 &&
              BitCount64(0x8000000000000001u) == 2 && BitCount64(0xf0f0u) == 8);
static_assert(BitCount16(0) == 0 && BitCount16(0xffffu) == 16 && BitCount16(0x8421u) == 4);
static_assert(NibbleLowBitCount(0x11111111u) == 8 && NibbleLowBitCount(0x10010001u) == 3 &&
              NibbleLowBitCount(0) == 0);

}  // namespace foundry::puzzles
