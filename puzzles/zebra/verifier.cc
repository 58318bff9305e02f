#include "puzzles/zebra/verifier.h"

#include <array>
#include <vector>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::zebra {
namespace {

using Dom = std::array<uint16_t, kMaxItems>;

class Mac {
 public:
  Mac(const ParsedPuzzle& p, int limit, Placement* first)
      : p_(p),
        h_(p.houses),
        n_(p.houses * static_cast<int>(p.categories.size())),
        limit_(limit),
        first_(first) {
    scratch_.fill(0);
  }

  int Run() {
    Dom d{};
    for (int i = 0; i < n_; ++i) d[i] = static_cast<uint16_t>((1u << h_) - 1);
    // Unary clues filter their item's domain once.
    for (const Clue& c : p_.clues) {
      if (IsBinary(c.type)) continue;
      for (int h = 0; h < h_; ++h) {
        scratch_[c.a] = static_cast<int8_t>(h);
        if (!Holds(c, scratch_)) d[c.a] &= static_cast<uint16_t>(~(1u << h));
      }
    }
    Search(d);
    return count_;
  }

 private:
  // Removes from d[x] the values with no support in d[y] under clue c.
  bool Revise(const Clue& c, int x, int y, Dom& d, bool* changed) {
    for (int vx = 0; vx < h_; ++vx) {
      if (!((d[x] >> vx) & 1u)) continue;
      bool supported = false;
      scratch_[x] = static_cast<int8_t>(vx);
      for (int vy = 0; vy < h_ && !supported; ++vy) {
        if (!((d[y] >> vy) & 1u)) continue;
        scratch_[y] = static_cast<int8_t>(vy);
        supported = Holds(c, scratch_);
      }
      if (!supported) {
        d[x] &= static_cast<uint16_t>(~(1u << vx));
        *changed = true;
      }
    }
    return d[x] != 0;
  }

  bool Consistent(Dom& d) {
    for (;;) {
      bool changed = false;
      for (const Clue& c : p_.clues) {
        if (!IsBinary(c.type)) continue;
        if (!Revise(c, c.a, c.b, d, &changed) || !Revise(c, c.b, c.a, d, &changed)) return false;
      }
      // Pairwise not-equal within a category.
      for (int i = 0; i < n_; ++i) {
        if (BitCount16(d[i]) != 1) continue;
        const int first = (i / h_) * h_;
        for (int j = first; j < first + h_; ++j) {
          if (j == i || !(d[j] & d[i])) continue;
          d[j] &= static_cast<uint16_t>(~d[i]);
          if (!d[j]) return false;
          changed = true;
        }
      }
      if (!changed) return true;
    }
  }

  void Search(Dom d) {
    if (!Consistent(d)) return;
    int best = -1, best_count = 99;
    for (int i = 0; i < n_; ++i) {
      const int k = BitCount16(d[i]);
      if (k == 0) return;
      if (k > 1 && k < best_count) {
        best_count = k;
        best = i;
      }
    }
    if (best < 0) {
      if (count_ == 0 && first_) {
        for (int i = 0; i < n_; ++i) (*first_)[i] = static_cast<int8_t>(__builtin_ctz(d[i]));
      }
      ++count_;
      return;
    }
    for (int h = 0; h < h_ && count_ < limit_; ++h) {
      if (!((d[best] >> h) & 1u)) continue;
      Dom t = d;
      t[best] = static_cast<uint16_t>(1u << h);
      Search(t);
    }
  }

  const ParsedPuzzle& p_;
  const int h_, n_, limit_;
  Placement* first_;
  Placement scratch_;
  int count_ = 0;
};

}  // namespace

int IndependentCount(const ParsedPuzzle& p, int limit, Placement* first) {
  return Mac(p, limit, first).Run();
}

}  // namespace foundry::puzzles::zebra
