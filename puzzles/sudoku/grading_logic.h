// The techniques of the human-style grader (grader.h) on one grid: each
// Apply(t) makes one step of technique t, exactly as a person would, and
// says whether it found one. The grader decides the order; this file only
// knows how each technique looks at candidates.
//
// One template instance per box shape (shape_dispatch.h), over the shared
// unit tables (unit_geometry.h). Every technique only removes candidates no
// solution can use. Thread safety: a value, used by one thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "puzzles/bit_count.h"
#include "puzzles/sudoku/combinations.h"
#include "puzzles/sudoku/digit_positions.h"
#include "puzzles/sudoku/fruitless_scans.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/unit_geometry.h"

namespace foundry::puzzles::sudoku::grading {

using Mask = uint16_t;

// The grader's state for one shape: candidates, placed digits, and the
// techniques, each applied one step at a time.
template <int R, int C>
class GradingLogic {
 public:
  static constexpr int N = R * C;
  static constexpr int kCells = N * N;
  static constexpr Mask kFull = static_cast<Mask>((1u << N) - 1);
  using Geo = UnitGeometry<R, C>;
  using Where = typename DigitPositions<R, C>::Where;

  // The givens are placed first and the candidates follow from them, which
  // is what placing them one by one would leave (no scan has run yet).
  // Givens that clash leave the grid broken with those before the clash
  // placed.
  explicit GradingLogic(const Grid& puzzle) : g_(Geo::Get()) {
    val_.fill(0);
    placed_.fill(0);
    open_ = kCells;
    for (int c = 0; c < kCells; ++c) {
      if (!puzzle[c]) continue;
      const Mask bit = static_cast<Mask>(1u << (puzzle[c] - 1));
      Mask& in_row = placed_[g_.row[c]];
      Mask& in_col = placed_[N + g_.col[c]];
      Mask& in_box = placed_[2 * N + g_.box[c]];
      if ((in_row | in_col | in_box) & bit) {
        broken_ = true;
        cand_.fill(0);  // nothing is read from a broken grid, but nothing undefined either
        return;
      }
      in_row |= bit;
      in_col |= bit;
      in_box |= bit;
      val_[c] = puzzle[c];
      --open_;
    }
    for (int c = 0; c < kCells; ++c) {
      if (val_[c]) {
        cand_[c] = 0;
        continue;
      }
      const Mask m = static_cast<Mask>(
          kFull & ~(placed_[g_.row[c]] | placed_[N + g_.col[c]] | placed_[2 * N + g_.box[c]]));
      cand_[c] = m;
      broken_ |= m == 0;
      if (m && !(m & (m - 1))) MarkSingle(c, true);
    }
  }

  // Cells not yet placed.
  int open() const { return open_; }
  // A cell lost every candidate, or two givens clash: no solution.
  bool broken() const { return broken_; }
  // Per cell, the digit placed (0: open).
  std::span<const uint8_t> digits() const { return val_; }
  // Per cell, the digits it may still take (bit d-1 for digit d; 0 once
  // placed).
  std::span<const Mask> candidates() const { return cand_; }

  // Makes one step of technique t; false when it finds nothing to do.
  bool Apply(Technique t) {
    // clang-format off
    switch (t) {
      case Technique::kNakedSingle:      return NakedSingles();
      case Technique::kHiddenSingle:     return HiddenSingles();
      case Technique::kLockedCandidates: return LockedCandidates();
      case Technique::kNakedPair:        return NakedSubset(2);
      case Technique::kHiddenPair:       return HiddenSubset(2);
      case Technique::kNakedTriple:      return NakedSubset(3);
      case Technique::kHiddenTriple:     return HiddenSubset(3);
      case Technique::kXWing:            return Fish(2);
      case Technique::kXYWing:           return XYWing();
      case Technique::kSwordfish:        return Fish(3);
      case Technique::kNakedQuad:        return NakedSubset(4);
      case Technique::kHiddenQuad:       return HiddenSubset(4);
    }
    // clang-format on
    return false;
  }

 private:
  // Puts the digit `bit` in open cell c. A placed cell keeps no candidates
  // (so scans need not skip it); its digit is in val_ and in placed_.
  void Place(int c, Mask bit) {
    Mask& in_row = placed_[g_.row[c]];
    Mask& in_col = placed_[N + g_.col[c]];
    Mask& in_box = placed_[2 * N + g_.box[c]];
    bool broken = ((in_row | in_col | in_box) & bit) != 0;
    in_row |= bit;
    in_col |= bit;
    in_box |= bit;
    val_[c] = static_cast<uint8_t>(__builtin_ctz(bit) + 1);
    const Mask lost = cand_[c];  // every digit c could take, bit among them
    cand_[c] = 0;
    --open_;
    positions_.Lose(g_, c, lost);
    MarkSingle(c, false);
    uint64_t units = g_.unit_bits[c];
    for (int p : g_.peers[c]) {
      if (!(cand_[p] & bit)) continue;
      const Mask m = static_cast<Mask>(cand_[p] & ~bit);
      cand_[p] = m;
      positions_.Lose(g_, p, bit);
      units |= g_.unit_bits[p];
      broken |= m == 0;
      if (!(m & (m - 1))) MarkSingle(p, m != 0);
    }
    fruitless_.Touch(units, lost);
    broken_ |= broken;
  }

  // Removes `bits` from open cell c; true if anything went.
  bool Elim(int c, Mask bits) {
    if (val_[c] || !(cand_[c] & bits)) return false;
    const Mask m = static_cast<Mask>(cand_[c] & ~bits);
    fruitless_.Touch(g_.unit_bits[c], cand_[c] & bits);
    positions_.Lose(g_, c, cand_[c] & bits);
    cand_[c] = m;
    if (!(m & (m - 1))) MarkSingle(c, m != 0);
    if (!m) broken_ = true;
    return true;
  }

  // One pass in cell order: a single that an earlier placement of the same
  // pass makes further on is placed in it too.
  bool NakedSingles() {
    bool any = false;
    for (int c = NextSingle(0); c < kCells && !broken_; c = NextSingle(c + 1)) {
      Place(c, cand_[c]);
      any = true;
    }
    return any;
  }

  // The open cells with one candidate left, as a bit set kept by Place and
  // Elim, so that a pass finds them without scanning every cell.
  static constexpr int kSingleWords = (kCells + 63) / 64;
  void MarkSingle(int c, bool single) {
    const uint64_t bit = uint64_t{1} << (c & 63);
    single_[c >> 6] = single ? single_[c >> 6] | bit : single_[c >> 6] & ~bit;
  }
  bool IsSingle(int c) const { return single_[c >> 6] >> (c & 63) & 1; }
  // The first cell from `from` on in single_, or kCells.
  int NextSingle(int from) const {
    int w = from >> 6;
    if (w >= kSingleWords) return kCells;
    uint64_t bits = single_[w] & (~uint64_t{0} << (from & 63));
    while (!bits) {
      if (++w == kSingleWords) return kCells;
      bits = single_[w];
    }
    return w * 64 + __builtin_ctzll(bits);
  }

  bool HiddenSingles() {
    bool any = false;
    uint64_t& fruitless = fruitless_.units(UnitScan::kHiddenSingles);
    for (int u = 0; u < 3 * N; ++u) {
      if (fruitless >> u & 1) continue;
      const auto& unit = g_.units[u];
      Mask once = 0, twice = 0;
      for (int c : unit) {
        twice |= once & cand_[c];
        once |= cand_[c];
      }
      const Mask placed = placed_[u];
      if ((once | placed) != kFull) {
        broken_ = true;
        return any;
      }
      Mask hidden = static_cast<Mask>(once & ~twice & ~placed);
      if (!hidden) fruitless |= uint64_t{1} << u;
      for (; hidden; hidden = static_cast<Mask>(hidden & (hidden - 1))) {
        const Mask bit = hidden & static_cast<Mask>(-hidden);
        for (int c : unit) {
          if (cand_[c] & bit) {
            Place(c, bit);
            any = true;
            break;
          }
        }
        if (broken_) return any;
      }
    }
    return any;
  }

  // Pointing and claiming. Digits in order, and for each the rows, the
  // columns, then the boxes: the first unit whose digit is confined to one
  // line (or box) with something to remove outside it is the step. Works
  // on each digit's positions as one column mask per row and one row mask
  // per column, built in one pass over the grid.
  bool LockedCandidates() {
    using Line = uint32_t;
    uint32_t& fruitless = fruitless_.digits(DigitScan::kLockedCandidates);
    if (fruitless == kFull) return false;
    const Where& at = positions_.Get(g_, cand_.data());
    constexpr Line kBoxCols = (Line{1} << C) - 1;  // the columns of box column 0
    constexpr Line kBoxRows = (Line{1} << R) - 1;  // the rows of box row 0
    for (int d = 0; d < N; ++d) {
      if (fruitless >> d & 1) continue;
      const Mask bit = static_cast<Mask>(1u << d);
      Line rows[N], cols[N];  // per row its columns, per column its rows
      for (int i = 0; i < N; ++i) {
        rows[i] = at[i][d];
        cols[i] = at[N + i][d];
      }
      // A row: its d within one box claims the box's other rows.
      for (int r = 0; r < N; ++r) {
        const Line x = rows[r];
        if (!(x & (x - 1))) continue;
        const int j = __builtin_ctz(x) / C;
        const Line group = kBoxCols << (C * j);
        if (x & ~group) continue;
        bool any = false;
        for (int r2 = r / R * R; r2 < r / R * R + R; ++r2) {
          if (r2 != r) any |= ElimInRow(r2, rows[r2] & group, bit);
        }
        if (any) return true;
      }
      // A column: likewise within one box.
      for (int k = 0; k < N; ++k) {
        const Line x = cols[k];
        if (!(x & (x - 1))) continue;
        const int i = __builtin_ctz(x) / R;
        if (x & ~(kBoxRows << (R * i))) continue;
        const Line group = kBoxCols << (k / C * C);
        bool any = false;
        for (int r2 = i * R; r2 < i * R + R; ++r2) {
          any |= ElimInRow(r2, rows[r2] & group & ~(Line{1} << k), bit);
        }
        if (any) return true;
      }
      // A box: its d within one row or one column points outside the box.
      for (int b = 0; b < N; ++b) {
        const int r0 = b / R * R;
        const Line group = kBoxCols << (b % R * C);
        Line in_cols = 0;
        int count = 0, lines = 0, row = 0;
        for (int r = r0; r < r0 + R; ++r) {
          const Line x = rows[r] & group;
          if (!x) continue;
          in_cols |= x;
          count += Count(x);
          ++lines;
          row = r;
        }
        if (count < 2) continue;
        bool any = false;
        if (lines == 1) any |= ElimInRow(row, rows[row] & ~group, bit);
        if (!(in_cols & (in_cols - 1))) {
          const int k = __builtin_ctz(in_cols);
          for (Line y = cols[k] & ~(kBoxRows << r0); y; y &= y - 1) {
            any |= Elim(__builtin_ctz(y) * N + k, bit);
          }
        }
        if (any) return true;
      }
      fruitless |= 1u << d;
    }
    return false;
  }

  // Removes `bit` from the cells of row r in `columns`; true if any had it.
  bool ElimInRow(int r, uint32_t columns, Mask bit) {
    bool any = false;
    for (; columns; columns &= columns - 1) any |= Elim(r * N + __builtin_ctz(columns), bit);
    return any;
  }

  static constexpr UnitScan kNaked[] = {UnitScan::kNakedPairs, UnitScan::kNakedTriples,
                                        UnitScan::kNakedQuads};
  static constexpr UnitScan kHidden[] = {UnitScan::kHiddenPairs, UnitScan::kHiddenTriples,
                                         UnitScan::kHiddenQuads};

  // Whether a subset scan can pass over unit u because the complementary
  // scan of the other kind is known to find nothing there. In a unit of n
  // open cells, k cells holding only k digits (a naked subset) leave the
  // other n - k digits to the other n - k cells (a hidden subset), and both
  // remove the same candidates, so the two scans find a step in u together.
  // m = n - k is the other side's size (1: a hidden single, or a cell with
  // one candidate); `hidden`: the other side is a hidden subset. A scan
  // passes over the singles of its kind, so u must have none. The grader
  // tries pairs and triples before quads: most quad scans end here.
  bool OtherSideFruitless(bool hidden, int m, int u) {
    if (m > 4) return false;  // cheapest tests first: this runs on every subset scan
    if (m > 1 && !(fruitless_.units(hidden ? kHidden[m - 2] : kNaked[m - 2]) >> u & 1)) {
      return false;
    }
    if (hidden) return fruitless_.units(UnitScan::kHiddenSingles) >> u & 1;
    return std::none_of(g_.units[u].begin(), g_.units[u].end(), [&](int c) { return IsSingle(c); });
  }

  bool NakedSubset(int k) {
    uint64_t& fruitless = fruitless_.units(kNaked[k - 2]);
    for (int u = 0; u < 3 * N; ++u) {
      if (fruitless >> u & 1) continue;
      const auto& unit = g_.units[u];
      const int open = N - Count(placed_[u]);  // one digit per placed cell
      if (open <= k || OtherSideFruitless(/*hidden=*/true, open - k, u)) {
        fruitless |= uint64_t{1} << u;
        continue;
      }
      int cells[N];
      uint32_t masks[N];
      int m = 0;
      for (int c : unit) {
        const int p = Count(cand_[c]);  // 0 for a placed cell
        if (p >= 2 && p <= k) {
          masks[m] = cand_[c];
          cells[m++] = c;
        }
      }
      const bool found = ForCombosWithin(m, k, masks, CountOf, [&](const int* idx) {
        Mask digits = 0;
        for (int i = 0; i < k; ++i) digits |= cand_[cells[idx[i]]];
        if (Count(digits) != k) return false;
        bool any = false;
        for (int c : unit) {
          bool member = false;
          for (int i = 0; i < k; ++i) member |= cells[idx[i]] == c;
          if (!member) any |= Elim(c, digits);
        }
        return any;
      });
      if (found) return true;
      fruitless |= uint64_t{1} << u;
    }
    return false;
  }

  bool HiddenSubset(int k) {
    uint64_t& fruitless = fruitless_.units(kHidden[k - 2]);
    if (fruitless == kAllUnits) return false;
    const Where& at = positions_.Get(g_, cand_.data());
    for (int u = 0; u < 3 * N; ++u) {
      if (fruitless >> u & 1) continue;
      const auto& unit = g_.units[u];
      const uint32_t* pos = at[u];  // per digit, the unit indices where it can go
      int digits[N];
      int m = 0;
      const int open = N - Count(placed_[u]);  // one digit per placed cell
      if (open <= k || OtherSideFruitless(/*hidden=*/false, open - k, u)) {
        fruitless |= uint64_t{1} << u;
        continue;
      }
      uint32_t masks[N];
      for (int d = 0; d < N; ++d) {
        const int p = Count(pos[d]);
        if (p >= 2 && p <= k) {
          masks[m] = pos[d];
          digits[m++] = d;
        }
      }
      const bool found = ForCombosWithin(m, k, masks, CountOf, [&](const int* idx) {
        uint32_t where = 0;
        Mask keep = 0;
        for (int i = 0; i < k; ++i) {
          where |= pos[digits[idx[i]]];
          keep |= static_cast<Mask>(1u << digits[idx[i]]);
        }
        if (Count(where) != k) return false;
        bool any = false;
        for (uint32_t w = where; w; w &= w - 1) {
          any |= Elim(unit[__builtin_ctz(w)], static_cast<Mask>(kFull & ~keep));
        }
        return any;
      });
      if (found) return true;
      fruitless |= uint64_t{1} << u;
    }
    return false;
  }

  // X-wing (k = 2) and swordfish (k = 3), rows as base then columns.
  bool Fish(int k) {
    uint32_t& fruitless = fruitless_.digits(k == 2 ? DigitScan::kXWings : DigitScan::kSwordfish);
    if (fruitless == kFull) return false;
    const Where& at = positions_.Get(g_, cand_.data());
    for (int d = 0; d < N; ++d) {
      if (fruitless >> d & 1) continue;
      const Mask bit = static_cast<Mask>(1u << d);
      for (int by_rows = 1; by_rows >= 0; --by_rows) {
        uint32_t lines[N];  // per base line, the cross positions of d
        for (int i = 0; i < N; ++i) lines[i] = at[by_rows ? i : N + i][d];
        int base[N];
        uint32_t masks[N];
        int m = 0;
        for (int i = 0; i < N; ++i) {
          const int p = Count(lines[i]);
          if (p >= 2 && p <= k) {
            masks[m] = lines[i];
            base[m++] = i;
          }
        }
        const bool found = ForCombosWithin(m, k, masks, CountOf, [&](const int* idx) {
          uint32_t cover = 0, in_base = 0;
          for (int i = 0; i < k; ++i) {
            cover |= lines[base[idx[i]]];
            in_base |= 1u << base[idx[i]];
          }
          if (Count(cover) != k) return false;
          bool any = false;
          for (int i = 0; i < N; ++i) {
            if (in_base & (1u << i)) continue;
            for (uint32_t w = cover; w; w &= w - 1) {
              const int j = __builtin_ctz(w);
              any |= Elim(by_rows ? i * N + j : j * N + i, bit);
            }
          }
          return any;
        });
        if (found) return true;
      }
      fruitless |= 1u << d;
    }
    return false;
  }

  // Pivot xy, wings xz and yz among its peers: z goes from every cell that
  // sees both wings. Pivots in cell order, wings in peer order.
  bool XYWing() {
    if (fruitless_.grid()) return false;
    for (int pivot = 0; pivot < kCells; ++pivot) {
      const Mask xy = cand_[pivot];  // 0 for a placed cell
      if (Count(xy) != 2) continue;
      // The two-candidate peers sharing one digit with the pivot, in peer
      // order: every wing is one of them.
      int wings[Geo::kPeers];
      int m = 0;
      for (int p : g_.peers[pivot]) {
        const Mask w = cand_[p];
        if (Count(w) == 2 && Count(w & xy) == 1) wings[m++] = p;
      }
      for (int i = 0; i < m; ++i) {
        const int a = wings[i];
        const Mask shared_a = cand_[a] & xy;
        const Mask z = static_cast<Mask>(cand_[a] & ~xy);
        const Mask want_b = static_cast<Mask>((xy & ~shared_a) | z);
        for (int j = 0; j < m; ++j) {
          const int b = wings[j];
          if (b == a || cand_[b] != want_b) continue;
          bool any = false;
          for (int c : g_.peers[a]) {
            if (c != b && c != pivot && g_.Sees(c, b)) any |= Elim(c, z);
          }
          if (any) return true;
        }
      }
    }
    fruitless_.grid() = true;
    return false;
  }

  static constexpr MaskBitCount<N> CountOf{};
  static int Count(uint32_t m) { return CountOf(m); }

  static constexpr uint64_t kAllUnits = (uint64_t{1} << (3 * N)) - 1;
  FruitlessScans fruitless_;

  const Geo& g_;
  DigitPositions<R, C> positions_;
  std::array<uint64_t, kSingleWords> single_{};
  std::array<Mask, kCells> cand_;
  std::array<uint8_t, kCells> val_;
  std::array<Mask, 3 * N> placed_;  // per unit, the digits placed in it
  int open_ = 0;
  bool broken_ = false;
};

}  // namespace foundry::puzzles::sudoku::grading
