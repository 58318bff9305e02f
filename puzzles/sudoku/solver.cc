#include "puzzles/sudoku/solver.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "puzzles/bit_count.h"
#include "puzzles/sudoku/band_solver.h"
#include "puzzles/sudoku/locked_candidates.h"
#include "puzzles/sudoku/shape_dispatch.h"
#include "puzzles/sudoku/swap_cycles.h"
#include "puzzles/sudoku/unit_geometry.h"

namespace foundry::puzzles::sudoku {
namespace {

// The solver for one shape. Masks have bit d-1 set when digit d is possible.
template <int R, int C>
class Engine {
 public:
  static constexpr int N = R * C;
  static constexpr int NN = N * N;
  static constexpr int kPeers = UnitGeometry<R, C>::kPeers;
  static constexpr int kUnits = UnitGeometry<R, C>::kUnits;
  using Mask = uint16_t;
  static constexpr Mask kFull = static_cast<Mask>((1u << N) - 1);

  struct State {
    std::array<Mask, NN> cand;
    std::array<uint8_t, NN> done;  // 1 once the cell's digit is placed
    int left;                      // cells not yet placed
  };

  // Every cell open.
  static void Reset(State& s) {
    s.cand.fill(kFull);
    s.done.fill(0);
    s.left = NN;
  }

  // Places the givens of `g` except cell `skip`, and `skip_not` is removed
  // from the candidates of `skip`. False on a contradiction.
  static bool Load(State& s, const uint8_t* g, int skip = -1, Mask skip_not = 0) {
    const Tables& t = T();
    Mask row[N] = {}, col[N] = {}, box[N] = {};
    for (int c = 0; c < NN; ++c) {
      if (g[c] == 0 || c == skip) continue;
      const Mask bit = static_cast<Mask>(1u << (g[c] - 1));
      const int r = t.row[c], k = t.col[c], b = t.box[c];
      if ((row[r] | col[k] | box[b]) & bit) return false;
      row[r] |= bit;
      col[k] |= bit;
      box[b] |= bit;
    }
    s.left = 0;
    int singles[NN];
    int ns = 0;
    for (int c = 0; c < NN; ++c) {
      if (g[c] != 0 && c != skip) {
        s.cand[c] = static_cast<Mask>(1u << (g[c] - 1));
        s.done[c] = 1;
        continue;
      }
      Mask m = static_cast<Mask>(kFull & ~(row[t.row[c]] | col[t.col[c]] | box[t.box[c]]));
      if (c == skip) m = static_cast<Mask>(m & ~skip_not);
      if (!m) return false;
      s.cand[c] = m;
      s.done[c] = 0;
      ++s.left;
      if (!(m & (m - 1))) singles[ns++] = c;
    }
    for (int i = 0; i < ns; ++i) {
      const int c = singles[i];
      if (s.done[c]) continue;
      if (!Assign(s, c, s.cand[c])) return false;
    }
    return true;
  }

  // Places `bit` in `cell` and every naked single that follows.
  // REQUIRES: s.cand[cell] & bit.
  static bool Assign(State& s, int cell, Mask bit) {
    const Tables& t = T();
    int stack[NN + 1];
    int sp = 0;
    s.cand[cell] = bit;
    stack[sp++] = cell;
    while (sp) {
      const int c = stack[--sp];
      if (s.done[c]) continue;
      const Mask b = s.cand[c];
      s.done[c] = 1;
      --s.left;
      for (int k = 0; k < kPeers; ++k) {
        const int p = t.peers[c][k];
        Mask m = s.cand[p];
        if (!(m & b)) continue;
        m = static_cast<Mask>(m & ~b);
        s.cand[p] = m;
        if (!m) return false;
        if (!(m & (m - 1))) stack[sp++] = p;
      }
    }
    return true;
  }

  // One pass of hidden singles over every unit: -1 contradiction, 0 nothing
  // placed, 1 something placed.
  static int HiddenSingles(State& s) {
    const Tables& t = T();
    int changed = 0;
    for (int u = 0; u < kUnits; ++u) {
      const uint8_t* unit = t.units[u].data();
      Mask once = 0, twice = 0, solved = 0;
      for (int k = 0; k < N; ++k) {
        const Mask m = s.cand[unit[k]];
        twice |= once & m;
        once |= m;
        if (s.done[unit[k]]) solved |= m;
      }
      if (once != kFull) return -1;
      Mask hidden = static_cast<Mask>(once & ~twice & ~solved);
      while (hidden) {
        const Mask bit = hidden & static_cast<Mask>(-hidden);
        hidden = static_cast<Mask>(hidden ^ bit);
        int k = 0;
        while (k < N && !(s.cand[unit[k]] & bit)) ++k;
        if (k == N) return -1;
        if (s.done[unit[k]]) {
          if (s.cand[unit[k]] != bit) return -1;
          continue;
        }
        if (!Assign(s, unit[k], bit)) return -1;
        changed = 1;
      }
    }
    return changed;
  }

  // Singles to a fixpoint; with `locked`, locked candidates too (the
  // counting search on 12x12 and 16x16 grids, whose sparse puzzles would
  // otherwise take the search millions of nodes to refute).
  static bool Propagate(State& s, bool locked = false) {
    for (;;) {
      if (s.left == 0) return true;
      int r = HiddenSingles(s);
      if (r < 0) return false;
      if (r == 0 && locked) {
        r = LockedCandidates<R, C>(s.cand.data(), s.done.data(),
                                   [&s](int c) { return Assign(s, c, s.cand[c]); });
      }
      if (r < 0) return false;
      if (r == 0) return true;
    }
  }

  // An open cell with the fewest candidates. REQUIRES: s.left > 0.
  static int PickCell(const State& s) {
    int best = -1, best_count = N + 1;
    for (int c = 0; c < NN; ++c) {
      if (s.done[c]) continue;
      const int k = BitCount16(s.cand[c]);
      if (k < best_count) {
        best_count = k;
        best = c;
        if (k == 2) break;
      }
    }
    return best;
  }

  struct Counter {
    int limit;
    int count = 0;
    int64_t nodes_left = -1;    // the search's budget; -1: none
    bool out_of_nodes = false;  // it ran out: `count` is a lower bound
    uint8_t* first = nullptr;   // receives the first solution, if not null
    Rng* rng = nullptr;         // digits in random order when set
  };

  static void Search(State& s, Counter& k) {
    // Counting searches of the big shapes add locked candidates; the random
    // fill (k.rng) keeps plain singles, so a seed still draws the same grid.
    if (k.nodes_left >= 0 && k.nodes_left-- == 0) {
      k.out_of_nodes = true;
      return;
    }
    if (!Propagate(s, N >= 12 && k.rng == nullptr)) return;
    if (s.left == 0) {
      if (k.count == 0 && k.first) {
        for (int c = 0; c < NN; ++c)
          k.first[c] = static_cast<uint8_t>(__builtin_ctz(s.cand[c]) + 1);
      }
      ++k.count;
      return;
    }
    const int cell = PickCell(s);
    Mask bits[N];
    int nb = 0;
    for (Mask m = s.cand[cell]; m; m = static_cast<Mask>(m & (m - 1))) {
      bits[nb++] = m & static_cast<Mask>(-m);
    }
    if (k.rng) {
      for (int i = nb - 1; i > 0; --i) std::swap(bits[i], bits[k.rng->Below(i + 1)]);
    }
    for (int i = 0; i < nb; ++i) {
      State t = s;
      if (Assign(t, cell, bits[i])) Search(t, k);
      if (k.count >= k.limit || k.out_of_nodes) return;
    }
  }

  static int Count(const uint8_t* g, int limit, uint8_t* first) {
    State s;
    if (!Load(s, g)) return 0;
    Counter k{limit};
    k.first = first;
    Search(s, k);
    return k.count;
  }

  // Solutions within the candidate masks `cand` (per cell, bit d for digit
  // d + 1; a placed cell has one bit), counted up to `limit`.
  static int CountFrom(const uint16_t* cand, int limit) {
    State s;
    s.left = NN;
    for (int c = 0; c < NN; ++c) {
      if (!(cand[c] & kFull)) return 0;
      s.cand[c] = static_cast<Mask>(cand[c] & kFull);
      s.done[c] = 0;
    }
    for (int c = 0; c < NN; ++c) {
      if (s.done[c]) continue;
      const Mask m = s.cand[c];  // a placement before may have narrowed it
      if (!m) return 0;
      if (!(m & (m - 1)) && !Assign(s, c, m)) return 0;
    }
    Counter k{limit};
    Search(s, k);
    return k.count;
  }

  // Whether `g` (with `cell` empty) has a solution where `cell` is not `value`.
  // With `max_nodes` >= 0 the search visits at most that many nodes; past
  // it *out_of_nodes is set and the answer means nothing.
  static bool HasOther(const uint8_t* g, int cell, int value, int64_t max_nodes = -1,
                       bool* out_of_nodes = nullptr) {
    State s;
    if (!Load(s, g, cell, static_cast<Mask>(1u << (value - 1)))) return false;
    Counter k{1};
    k.nodes_left = max_nodes;
    Search(s, k);
    if (out_of_nodes != nullptr) *out_of_nodes = k.out_of_nodes;
    return k.count > 0;
  }

  static void Random(uint8_t* out, Rng& rng) {
    if constexpr (R == 3 && C == 3) {
      band::RandomSolution(rng, out);  // the 9x9 generator's solver, as above
      return;
    }
    // A random permutation in the first row, then a randomised search.
    State s;
    Reset(s);
    uint8_t perm[N];
    for (int i = 0; i < N; ++i) perm[i] = static_cast<uint8_t>(i + 1);
    for (int i = N - 1; i > 0; --i) std::swap(perm[i], perm[rng.Below(i + 1)]);
    for (int c = 0; c < N; ++c) Assign(s, c, static_cast<Mask>(1u << (perm[c] - 1)));
    Counter k{1};
    k.first = out;
    k.rng = &rng;
    Search(s, k);
  }

  // Row, column and box digit masks of a grid, kept up to date as clues
  // come and go, for the cheap test below; for 9x9 grids, the clues in the
  // band solver's form too, for its checks.
  static constexpr bool kNine = R == 3 && C == 3;
  struct NoGivens {};
  struct Used {
    Mask row[N] = {}, col[N] = {}, box[N] = {};
    [[no_unique_address]] std::conditional_t<kNine, band::Givens, NoGivens> band;
    void Flip(int cell, int v) {
      if constexpr (kNine) band.Flip(cell, v);
      const Tables& t = T();
      const Mask bit = static_cast<Mask>(1u << (v - 1));
      row[t.row[cell]] ^= bit;
      col[t.col[cell]] ^= bit;
      box[t.box[cell]] ^= bit;
    }
    Mask At(int cell) const {
      const Tables& t = T();
      return static_cast<Mask>(row[t.row[cell]] | col[t.col[cell]] | box[t.box[cell]]);
    }
  };

  // HasOther for the removal loop: 9x9 grids go to the bitboard solver
  // (band_solver.h), about twice as fast there.
  static bool RemovalHasOther(const uint8_t* g, const Used& used, int cell, int value,
                              int64_t max_nodes, bool* out_of_nodes) {
    if constexpr (kNine) {
      return band::HasOther(used.band, cell, value);
    } else {
      return HasOther(g, cell, value, max_nodes, out_of_nodes);
    }
  }

  // Whether the clues of g force the empty `cell` to be v by a naked or a
  // hidden single. Then removing the clue cannot admit a second solution,
  // and the search is not needed (most removals early on).
  static bool Forced(const uint8_t* g, const Used& used, int cell, int v) {
    const Mask bit = static_cast<Mask>(1u << (v - 1));
    if (static_cast<Mask>(used.At(cell) | bit) == kFull) return true;  // naked single
    if constexpr (kNine) {
      return band::HiddenSingle(used.band, cell, v);  // whole units at once
    } else {
      const Tables& t = T();
      for (int u : {static_cast<int>(t.row[cell]), N + t.col[cell], 2 * N + t.box[cell]}) {
        bool only_here = true;  // every other empty cell of the unit already sees v
        for (int k = 0; k < N && only_here; ++k) {
          const int c = t.units[u][k];
          if (c != cell && !g[c] && !(used.At(c) & bit)) only_here = false;
        }
        if (only_here) return true;
      }
      return false;
    }
  }

  // False when a uniqueness check ran past o.max_check_nodes (g is then
  // part way).
  static bool Remove(uint8_t* g, Rng& rng, const RemovalOptions& o, RemovalStats* stats) {
    int order[NN];
    int m = 0;
    for (int c = 0; c < NN; ++c) {
      if (!o.symmetric || c <= NN - 1 - c) order[m++] = c;
    }
    for (int i = m - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
    Used used;
    for (int c = 0; c < NN; ++c) used.Flip(c, g[c]);
    const SwapCycles cycles(Shape{R, C}, Grid(g, g + NN));  // g is the solution here
    ClueSet clues(cycles);
    for (int c = 0; c < NN; ++c) clues.Add(c);
    int checks = 0, swaps = 0, asked = 0, refused = 0;
    for (int i = 0; i < m; ++i) {
      const int a = order[i];
      const int b = o.symmetric ? NN - 1 - a : a;
      const uint8_t va = g[a], vb = g[b];
      g[a] = 0;
      used.Flip(a, va);
      clues.Remove(a);
      if (b != a) {
        g[b] = 0;
        used.Flip(b, vb);
        clues.Remove(b);
      }
      // Fast path: a forced with both gone, then b forced with a back.
      bool forced = Forced(g, used, a, va);
      if (forced && b != a) {
        g[a] = va;
        used.Flip(a, va);
        forced = Forced(g, used, b, vb);
        g[a] = 0;
        used.Flip(a, va);
      }
      bool other = false;
      if (!forced) {
        // A swap cycle left without clues is a second solution: no search.
        other = cycles.HasFreeCycle(a, clues) || (b != a && cycles.HasFreeCycle(b, clues));
        if (other) ++swaps;
      }
      if (!forced && !other) {
        bool out = false;
        other = (++checks, RemovalHasOther(g, used, a, va, o.max_check_nodes, &out));
        if (!other && !out && b != a) {
          // Both empty: another solution differs at a (just ruled out) or at b.
          other = (++checks, RemovalHasOther(g, used, b, vb, o.max_check_nodes, &out));
        }
        if (out) {
          if (stats) stats->checks += checks;
          return false;
        }
      }
      if (!other && !forced && o.allow) {
        ++asked;
        other = !o.allow(g);  // a refused removal: the clue stays
        if (other) ++refused;
      }
      if (other) {
        g[a] = va;
        used.Flip(a, va);
        clues.Add(a);
        if (b != a) {
          g[b] = vb;
          used.Flip(b, vb);
          clues.Add(b);
        }
        if (!o.minimal) break;
      }
    }
    if (stats) {
      stats->checks += checks;
      stats->swaps += swaps;
      stats->asked += asked;
      stats->refused += refused;
    }
    return true;
  }

  static bool Minimal(const uint8_t* puzzle, bool symmetric) {
    uint8_t g[NN];
    std::memcpy(g, puzzle, NN);
    for (int a = 0; a < NN; ++a) {
      if (!g[a]) continue;
      const int b = symmetric ? NN - 1 - a : a;
      if (b < a) continue;
      const uint8_t va = g[a], vb = g[b];
      g[a] = 0;
      g[b] = 0;
      const bool other = HasOther(g, a, va) || (b != a && vb && HasOther(g, b, vb));
      g[a] = va;
      g[b] = vb;
      if (!other) return false;
    }
    return true;
  }

 private:
  using Tables = UnitGeometry<R, C>;
  static const Tables& T() { return Tables::Get(); }
};

}  // namespace

int CountSolutions(const Shape& shape, const Grid& givens, int limit, Grid* first) {
  if (first) first->assign(givens.size(), 0);
  return DispatchShape<Engine>(shape, [&]<typename E>() {
    return E::Count(givens.data(), limit, first ? first->data() : nullptr);
  });
}

int CountSolutionsWithin(const Shape& shape, const std::vector<uint16_t>& candidates, int limit) {
  return DispatchShape<Engine>(
      shape, [&]<typename E>() { return E::CountFrom(candidates.data(), limit); });
}

Grid RandomSolution(const Shape& shape, Rng& rng) {
  Grid g(shape.cells(), 0);
  DispatchShape<Engine>(shape, [&]<typename E>() { E::Random(g.data(), rng); });
  return g;
}

Grid RemoveClues(const Shape& shape, const Grid& solution, Rng& rng, const RemovalOptions& options,
                 RemovalStats* stats) {
  Grid g = solution;
  const bool done = DispatchShape<Engine>(
      shape, [&]<typename E>() { return E::Remove(g.data(), rng, options, stats); });
  if (!done) g.clear();
  return g;
}

bool IsMinimal(const Shape& shape, const Grid& puzzle, bool symmetric) {
  return DispatchShape<Engine>(shape,
                               [&]<typename E>() { return E::Minimal(puzzle.data(), symmetric); });
}

}  // namespace foundry::puzzles::sudoku
