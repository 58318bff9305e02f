#include "puzzles/zebra/solver.h"

#include <vector>

namespace foundry::puzzles::zebra {
namespace {

inline bool Single(uint8_t m) { return m && !(m & (m - 1)); }
inline int Lowest(uint8_t m) { return __builtin_ctz(m); }
inline int Highest(uint8_t m) { return 31 - __builtin_clz(m); }

// Bits set in a byte, by table: the build targets plain x86-64, where
// __builtin_popcount is a library call.
constexpr std::array<uint8_t, 256> kBits = [] {
  std::array<uint8_t, 256> t{};
  for (int i = 1; i < 256; ++i) t[i] = static_cast<uint8_t>(t[i >> 1] + (i & 1));
  return t;
}();
inline int Bits(uint8_t m) { return kBits[m]; }

}  // namespace

Solver::Solver(int houses, int categories, std::span<const Clue> clues, int skip)
    : h_(houses),
      k_(categories),
      n_(houses * categories),
      full_(static_cast<uint8_t>((1u << houses) - 1)),
      clues_(clues),
      skip_(skip) {}

Domains Solver::Start() const {
  Domains d{};
  for (int i = 0; i < n_; ++i) d[i] = full_;
  return d;
}

bool Solver::Solved(const Domains& d) const {
  for (int i = 0; i < n_; ++i) {
    if (!Single(d[i])) return false;
  }
  return true;
}

int Solver::Open(const Domains& d) const {
  int open = 0;
  for (int i = 0; i < n_; ++i) open += Bits(d[i]) - 1;
  return open;
}

// Narrows the domains of c's items to what c allows.
bool Solver::Apply(const Clue& c, Domains& d, bool* changed) const {
  uint8_t& a = d[c.a];
  const uint8_t a0 = a;
  switch (c.type) {
    case ClueType::kPosition:
      a &= static_cast<uint8_t>(1u << c.house);
      break;
    case ClueType::kNotPosition:
      a &= static_cast<uint8_t>(~(1u << c.house));
      break;
    case ClueType::kSame: {
      uint8_t& b = d[c.b];
      const uint8_t m = a & b;
      if (b != m) *changed = true;
      a = b = m;
      break;
    }
    case ClueType::kNotSame: {
      uint8_t& b = d[c.b];
      if (Single(a) && (b & a)) {
        b &= static_cast<uint8_t>(~a);
        *changed = true;
      }
      if (Single(b) && (a & b)) a &= static_cast<uint8_t>(~b);
      if (!b) return false;
      break;
    }
    case ClueType::kLeftOf: {
      uint8_t& b = d[c.b];
      if (!a || !b) return false;
      // a below b's highest house; b above a's lowest.
      a &= static_cast<uint8_t>((1u << Highest(b)) - 1);
      const uint8_t nb = b & static_cast<uint8_t>(~((2u << Lowest(a ? a : a0)) - 1));
      if (nb != b) {
        b = nb;
        *changed = true;
      }
      if (!b) return false;
      break;
    }
    case ClueType::kImmediatelyLeftOf: {
      uint8_t& b = d[c.b];
      const uint8_t nb = b & static_cast<uint8_t>(a << 1) & full_;
      if (nb != b) {
        b = nb;
        *changed = true;
      }
      a &= static_cast<uint8_t>(b >> 1);
      if (!b) return false;
      break;
    }
    case ClueType::kNextTo: {
      uint8_t& b = d[c.b];
      const uint8_t nb = b & static_cast<uint8_t>((a << 1) | (a >> 1)) & full_;
      if (nb != b) {
        b = nb;
        *changed = true;
      }
      a &= static_cast<uint8_t>((b << 1) | (b >> 1));
      if (!b) return false;
      break;
    }
  }
  if (a != a0) *changed = true;
  return a != 0;
}

// All-different within each category: placed houses leave the others, a
// house only one item can take goes to it.
bool Solver::Categories(Domains& d, bool* changed) const {
  for (int c = 0; c < k_; ++c) {
    uint8_t* items = &d[c * h_];
    uint8_t once = 0, twice = 0, placed = 0, open = 0;
    for (int i = 0; i < h_; ++i) {
      const uint8_t m = items[i];
      twice |= once & m;
      once |= m;
      if (Single(m)) {
        if (placed & m) return false;
        placed |= m;
      } else {
        open |= m;
      }
    }
    if (once != full_) return false;
    const uint8_t hidden = once & static_cast<uint8_t>(~twice);
    // Nothing to narrow unless an open item holds a placed or hidden house.
    if (!(open & (placed | hidden))) continue;
    for (int i = 0; i < h_; ++i) {
      const uint8_t m = items[i];
      if (Single(m)) continue;
      uint8_t nm = m & static_cast<uint8_t>(~placed);
      if (nm & hidden) {
        nm &= hidden;
        if (!Single(nm)) return false;  // two houses only this item can take
      }
      if (nm != m) {
        if (!nm) return false;
        items[i] = nm;
        *changed = true;
      }
    }
  }
  return true;
}

bool Solver::Propagate(Domains& d, int* passes) const {
  const int n = static_cast<int>(clues_.size());
  for (;;) {
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      if (i == skip_) continue;
      if (!Apply(clues_[i], d, &changed)) return false;
    }
    if (!Categories(d, &changed)) return false;
    if (passes) ++*passes;
    if (!changed) return true;
  }
}

bool Solver::Rounds(Domains& d, int* rounds) const {
  const int n = static_cast<int>(clues_.size());
  for (;;) {
    // Every rule reads `d`; what each narrows is intersected into `next`.
    Domains next = d;
    for (int i = 0; i < n; ++i) {
      if (i == skip_) continue;
      const Clue& c = clues_[i];
      Domains t = d;
      bool changed = false;
      if (!Apply(c, t, &changed)) return false;
      if (!changed) continue;
      next[c.a] &= t[c.a];
      if (IsBinary(c.type)) next[c.b] &= t[c.b];
    }
    Domains t = d;
    bool changed = false;
    if (!Categories(t, &changed)) return false;
    if (changed) {
      for (int i = 0; i < n_; ++i) next[i] &= t[i];
    }
    if (next == d) return true;
    for (int i = 0; i < n_; ++i) {
      if (!next[i]) return false;
    }
    d = next;
    ++*rounds;
  }
}

int Solver::Count(Domains d, int limit, int* nodes, Placement* first) const {
  if (!Propagate(d)) return 0;
  int best = -1, best_count = 99;
  for (int i = 0; i < n_; ++i) {
    const int k = Bits(d[i]);
    if (k > 1 && k < best_count) {
      best_count = k;
      best = i;
      if (k == 2) break;
    }
  }
  if (best < 0) {
    if (first) {
      for (int i = 0; i < n_; ++i) (*first)[i] = static_cast<int8_t>(Lowest(d[i]));
    }
    return 1;
  }
  int found = 0;
  for (uint8_t m = d[best]; m && found < limit; m &= static_cast<uint8_t>(m - 1)) {
    if (nodes) ++*nodes;
    Domains t = d;
    t[best] = m & static_cast<uint8_t>(-m);
    found += Count(t, limit - found, nodes, found == 0 ? first : nullptr);
  }
  return found;
}

int Solver::CountSolutions(int limit) const { return Count(Start(), limit); }

SolveReport Solver::Grade(int max_level) const {
  SolveReport r;
  auto found = [&](const Domains& d) {
    r.solutions = 1;
    for (int i = 0; i < n_; ++i) r.solution[i] = static_cast<int8_t>(Lowest(d[i]));
  };
  Domains d = Start();
  if (!Rounds(d, &r.rounds)) return r;
  if (Solved(d)) {
    r.level = r.rounds <= kEasyRounds ? 0 : 1;
    if (r.level <= max_level) found(d);
    return r;
  }
  r.open = Open(d);
  if (max_level < 2) {
    r.level = max_level + 1;
    return r;
  }
  // Refuted trials, greedily: each step drops the refuted value after whose
  // propagation the fewest houses stay open. A value that an earlier drop's
  // propagation already removed is skipped: dropping it cannot do better
  // (that earlier result is a fixpoint without it, so it lies within what
  // dropping it gives), and on a tie the earlier one wins anyway. A value
  // refuted at one step stays refuted at the next (the domains only shrink),
  // so its trial is not run again; and a trial whose fixpoint (kept from an
  // earlier step) lies within the current domains has that fixpoint again,
  // so it still succeeds without being run (otherwise its new fixpoint lies
  // within the old one, and propagation starts from their intersection).
  Domains refuted{}, kept{};
  std::vector<Domains> fixpoint(static_cast<size_t>(n_) * kMaxHouses);
  auto within = [&](const Domains& t) {
    for (int j = 0; j < n_; ++j) {
      if (t[j] & ~d[j]) return false;
    }
    return true;
  };
  for (;;) {
    Domains best{};
    Domains covered{};  // values some drop of this step removed
    int best_open = -1;
    for (int i = 0; i < n_ && best_open != 0; ++i) {
      if (Single(d[i])) continue;
      for (uint8_t m = d[i]; m && best_open != 0; m &= static_cast<uint8_t>(m - 1)) {
        const uint8_t bit = m & static_cast<uint8_t>(-m);
        if (covered[i] & bit) continue;
        if (!(refuted[i] & bit)) {
          Domains& trial = fixpoint[static_cast<size_t>(i) * kMaxHouses + Lowest(bit)];
          if (kept[i] & bit) {
            if (within(trial)) continue;
            // The new fixpoint lies within the old one: start from there.
            for (int j = 0; j < n_; ++j) trial[j] &= d[j];
          } else {
            trial = d;
            trial[i] = bit;
          }
          ++r.trials;
          if (Propagate(trial)) {
            kept[i] |= bit;
            continue;
          }
          kept[i] &= static_cast<uint8_t>(~bit);
          refuted[i] |= bit;
        }
        Domains dropped = d;
        dropped[i] &= static_cast<uint8_t>(~bit);
        if (!Propagate(dropped)) return r;  // no value of item i fits: no solution
        for (int j = 0; j < n_; ++j) covered[j] |= d[j] & static_cast<uint8_t>(~dropped[j]);
        const int open = Open(dropped);
        if (best_open < 0 || open < best_open) {
          best_open = open;
          best = dropped;
        }
      }
    }
    if (best_open < 0) break;  // no trial refuted: search from here
    d = best;
    ++r.refutations;
    if (best_open == 0) {
      r.level = r.refutations == 1 ? 2 : 3;
      if (r.level <= max_level) found(d);
      return r;
    }
    if (max_level < 3) {
      r.level = 3;
      return r;
    }
  }
  r.level = 3;
  r.solutions = Count(d, 2, &r.search_nodes, &r.solution);
  return r;
}

}  // namespace foundry::puzzles::zebra
