#include "puzzles/bulls_cows/codes.h"

#include <algorithm>
#include <cassert>

namespace foundry::puzzles::bulls_cows {

struct Universe::Shared {
  std::vector<Code> codes;
  std::vector<uint32_t> values;
  std::vector<uint8_t> table;  // empty above length 4
};

namespace {
constexpr int kMaxTableLength = 4;
}  // namespace

const Universe::Shared& Universe::SharedFor(int length) {
  // One builder for every length, instantiated per length below so each
  // static is built on first use only.
  const auto build = [](int len) {
    Shared s;
    int limit = 1;
    for (int k = 0; k < len; ++k) limit *= 10;
    for (int v = 0; v < limit; ++v) {
      Code c;
      int x = v;
      bool distinct = true;
      for (int k = len - 1; k >= 0; --k, x /= 10) {
        const int d = x % 10;
        if (c.mask & (1u << d)) distinct = false;
        c.mask = static_cast<uint16_t>(c.mask | (1u << d));
        c.packed |= static_cast<uint32_t>(d) << (4 * k);
      }
      if (!distinct) continue;
      s.codes.push_back(c);
      s.values.push_back(static_cast<uint32_t>(v));
    }
    if (len <= kMaxTableLength) {
      // 25 M scores at length 4, built when a process first needs them (a
      // worker's generation fingerprint does): the codes' fields in plain
      // arrays, so that the compiler vectorises ScoreCodes' arithmetic.
      const size_t n = s.codes.size();
      std::vector<uint32_t> packed(n), mask(n);
      for (size_t t = 0; t < n; ++t) {
        packed[t] = s.codes[t].packed;
        mask[t] = s.codes[t].mask;
      }
      s.table.resize(n * n);
      for (size_t g = 0; g < n; ++g) {
        const Code guess = s.codes[g];
        uint8_t* row = s.table.data() + g * n;
        for (size_t t = 0; t < n; ++t) {
          row[t] = static_cast<uint8_t>(ScoreCodes(guess, Code{packed[t], uint16_t(mask[t])}, len));
        }
      }
    }
    return s;
  };
  switch (length) {
    case 3: {
      static const Shared s = build(3);
      return s;
    }
    case 4: {
      static const Shared s = build(4);
      return s;
    }
    case 5: {
      static const Shared s = build(5);
      return s;
    }
    default: {
      static const Shared s = build(6);
      return s;
    }
  }
}

const Universe& Universe::For(int length, bool leading_zero) {
  assert(length >= kMinLength && length <= kMaxLength);
  const auto make = [](int len, bool lz) { return new Universe(len, lz, SharedFor(len)); };
  // Leaked on purpose: valid for the life of the program, no exit-time
  // destruction order to worry about.
  switch (length * 2 + (leading_zero ? 1 : 0)) {
    case 6: {
      static const Universe* u = make(3, false);
      return *u;
    }
    case 7: {
      static const Universe* u = make(3, true);
      return *u;
    }
    case 8: {
      static const Universe* u = make(4, false);
      return *u;
    }
    case 9: {
      static const Universe* u = make(4, true);
      return *u;
    }
    case 10: {
      static const Universe* u = make(5, false);
      return *u;
    }
    case 11: {
      static const Universe* u = make(5, true);
      return *u;
    }
    case 12: {
      static const Universe* u = make(6, false);
      return *u;
    }
    default: {
      static const Universe* u = make(6, true);
      return *u;
    }
  }
}

Universe::Universe(int length, bool leading_zero, const Shared& shared)
    : length_(length),
      leading_zero_(leading_zero),
      codes_(&shared.codes),
      values_(&shared.values),
      table_(shared.table.empty() ? nullptr : &shared.table) {
  for (uint32_t i = 0; i < shared.codes.size(); ++i) {
    if (leading_zero || (shared.codes[i].packed & 0xF) != 0) allowed_.push_back(i);
  }
}

std::string Universe::Text(uint32_t index) const {
  const Code c = (*codes_)[index];
  std::string s(static_cast<size_t>(length_), '0');
  for (int k = 0; k < length_; ++k) s[k] = static_cast<char>('0' + ((c.packed >> (4 * k)) & 0xF));
  return s;
}

int64_t Universe::Find(std::string_view text) const {
  if (text.size() != static_cast<size_t>(length_)) return -1;
  uint32_t value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return -1;
    value = value * 10 + static_cast<uint32_t>(ch - '0');
  }
  const auto it = std::lower_bound(values_->begin(), values_->end(), value);
  if (it == values_->end() || *it != value) return -1;  // a repeated digit
  return it - values_->begin();
}

}  // namespace foundry::puzzles::bulls_cows
