#include "puzzles/zebra/solver.h"

namespace foundry::puzzles::zebra {
namespace {

inline bool Single(uint8_t m) { return m && !(m & (m - 1)); }
inline int Lowest(uint8_t m) { return __builtin_ctz(m); }
inline int Highest(uint8_t m) { return 31 - __builtin_clz(m); }

}  // namespace

Solver::Solver(int houses, int categories, std::span<const Clue> clues, int skip)
    : h_(houses), k_(categories), n_(houses * categories),
      full_(static_cast<uint8_t>((1u << houses) - 1)), clues_(clues), skip_(skip) {}

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
    uint8_t once = 0, twice = 0, placed = 0;
    for (int i = 0; i < h_; ++i) {
      const uint8_t m = items[i];
      twice |= once & m;
      once |= m;
      if (Single(m)) {
        if (placed & m) return false;
        placed |= m;
      }
    }
    if (once != full_) return false;
    const uint8_t hidden = once & static_cast<uint8_t>(~twice);
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

bool Solver::TryValues(Domains& d, int* eliminations) const {
  for (;;) {
    bool dropped = false;
    for (int i = 0; i < n_; ++i) {
      if (Single(d[i])) continue;
      for (uint8_t m = d[i]; m; m &= static_cast<uint8_t>(m - 1)) {
        const uint8_t bit = m & static_cast<uint8_t>(-m);
        if (!(d[i] & bit)) continue;
        Domains trial = d;
        trial[i] = bit;
        if (Propagate(trial)) continue;
        d[i] &= static_cast<uint8_t>(~bit);
        ++*eliminations;
        dropped = true;
        if (!Propagate(d)) return false;
      }
    }
    if (!dropped) return true;
  }
}

int Solver::Count(Domains d, int limit, int* nodes, Placement* first) const {
  if (!Propagate(d)) return 0;
  int best = -1, best_count = 99;
  for (int i = 0; i < n_; ++i) {
    const int k = __builtin_popcount(d[i]);
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

SolveReport Solver::Grade() const {
  SolveReport r;
  Domains d = Start();
  if (!Propagate(d, &r.propagation_passes)) return r;
  if (Solved(d)) {
    r.solutions = 1;
    r.level = 0;
    r.solution = {};
    for (int i = 0; i < n_; ++i) r.solution[i] = static_cast<int8_t>(Lowest(d[i]));
    return r;
  }
  if (!TryValues(d, &r.try_eliminations)) return r;
  r.level = Solved(d) ? 1 : 2;
  r.solutions = Count(d, 2, &r.search_nodes, &r.solution);
  return r;
}

}  // namespace foundry::puzzles::zebra
