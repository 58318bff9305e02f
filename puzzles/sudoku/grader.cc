#include "puzzles/sudoku/grader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "puzzles/bit_count.h"
#include "puzzles/sudoku/shape_dispatch.h"
#include "puzzles/sudoku/unit_geometry.h"

namespace foundry::puzzles::sudoku {
namespace {

using Mask = uint16_t;

struct TechniqueInfo {
  Technique t;
  std::string_view name;
  int level;
};

// The difficulty table, in the order the grader tries the techniques.
constexpr TechniqueInfo kTable[kTechniqueCount] = {
    {Technique::kNakedSingle, "naked_single", 0},
    {Technique::kHiddenSingle, "hidden_single", 0},
    {Technique::kLockedCandidates, "locked_candidates", 1},
    {Technique::kNakedPair, "naked_pair", 1},
    {Technique::kHiddenPair, "hidden_pair", 1},
    {Technique::kNakedTriple, "naked_triple", 2},
    {Technique::kHiddenTriple, "hidden_triple", 2},
    {Technique::kXWing, "x_wing", 2},
    {Technique::kXYWing, "xy_wing", 2},
    {Technique::kSwordfish, "swordfish", 2},
    {Technique::kNakedQuad, "naked_quad", 2},
    {Technique::kHiddenQuad, "hidden_quad", 2},
};

constexpr bool LevelsNeverDrop() {
  for (int i = 1; i < kTechniqueCount; ++i) {
    if (kTable[i].level < kTable[i - 1].level) return false;
  }
  return true;
}
static_assert(LevelsNeverDrop(), "Run() stops at the first technique above max_level");

// Calls f(idx) for each increasing k-combination idx of 0..m-1 until f
// returns true; returns whether one did.
template <typename F>
bool ForCombos(int m, int k, F&& f) {
  if (k > m) return false;
  int idx[kMaxN];
  for (int i = 0; i < k; ++i) idx[i] = i;
  for (;;) {
    if (f(static_cast<const int*>(idx))) return true;
    int i = k - 1;
    while (i >= 0 && idx[i] == m - k + i) --i;
    if (i < 0) return false;
    ++idx[i];
    for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
}

// The grader's state for one shape: candidates, placed digits, and the
// techniques, each applied once per call.
template <int R, int C>
class Logic {
 public:
  static constexpr int N = R * C;
  static constexpr int kCells = N * N;
  static constexpr Mask kFull = static_cast<Mask>((1u << N) - 1);
  using Geo = UnitGeometry<R, C>;

  explicit Logic(const Grid& puzzle) : g_(Geo::Get()) {
    cand_.fill(kFull);
    val_.fill(0);
    placed_.fill(0);
    open_ = kCells;
    for (int c = 0; c < kCells; ++c) {
      if (!puzzle[c]) continue;
      const Mask bit = static_cast<Mask>(1u << (puzzle[c] - 1));
      if (val_[c] || !(cand_[c] & bit)) {
        broken_ = true;
        return;
      }
      Place(c, bit);
    }
  }

  Grade Run(int max_level) {
    Grade grade;
    grade.clues = kCells - open_;
    while (open_ > 0 && !broken_) {
      bool progress = false;
      for (const TechniqueInfo& info : kTable) {
        if (info.level > max_level) break;  // the table is in level order
        if (Apply(info.t)) {
          ++grade.uses[static_cast<int>(info.t)];
          grade.level = std::max(grade.level, info.level);
          progress = true;
          break;
        }
      }
      if (!progress) break;
    }
    grade.contradiction = broken_;
    grade.filled.assign(val_.begin(), val_.end());
    if (open_ > 0 && !broken_) {
      grade.capped = max_level < 3;
      grade.level = std::min(3, max_level + 1);  // 3: needs search
      grade.unsolved_when_stuck = open_;
    }
    return grade;
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
    cand_[c] = 0;
    --open_;
    for (int p : g_.peers[c]) {
      if (!(cand_[p] & bit)) continue;
      const Mask m = static_cast<Mask>(cand_[p] & ~bit);
      cand_[p] = m;
      broken |= m == 0;
    }
    broken_ |= broken;
  }

  // Removes `bits` from open cell c; true if anything went.
  bool Elim(int c, Mask bits) {
    if (val_[c] || !(cand_[c] & bits)) return false;
    cand_[c] = static_cast<Mask>(cand_[c] & ~bits);
    if (!cand_[c]) broken_ = true;
    return true;
  }

  bool Apply(Technique t) {
    switch (t) {
      case Technique::kNakedSingle:
        return NakedSingles();
      case Technique::kHiddenSingle:
        return HiddenSingles();
      case Technique::kLockedCandidates:
        return LockedCandidates();
      case Technique::kNakedPair:
        return NakedSubset(2);
      case Technique::kHiddenPair:
        return HiddenSubset(2);
      case Technique::kNakedTriple:
        return NakedSubset(3);
      case Technique::kHiddenTriple:
        return HiddenSubset(3);
      case Technique::kXWing:
        return Fish(2);
      case Technique::kXYWing:
        return XYWing();
      case Technique::kSwordfish:
        return Fish(3);
      case Technique::kNakedQuad:
        return NakedSubset(4);
      case Technique::kHiddenQuad:
        return HiddenSubset(4);
    }
    return false;
  }

  bool NakedSingles() {
    bool any = false;
    for (int c = 0; c < kCells && !broken_; ++c) {
      const Mask m = cand_[c];  // 0 for a placed cell
      if (m && !(m & (m - 1))) {
        Place(c, m);
        any = true;
      }
    }
    return any;
  }

  bool HiddenSingles() {
    bool any = false;
    for (int u = 0; u < 3 * N; ++u) {
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
    Line in_row[N][N] = {}, in_col[N][N] = {};  // [digit][row]: columns; [digit][column]: rows
    for (int c = 0; c < kCells; ++c) {
      for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1))) {
        const int d = __builtin_ctz(b);
        in_row[d][g_.row[c]] |= Line{1} << g_.col[c];
        in_col[d][g_.col[c]] |= Line{1} << g_.row[c];
      }
    }
    constexpr Line kBoxCols = (Line{1} << C) - 1;  // the columns of box column 0
    constexpr Line kBoxRows = (Line{1} << R) - 1;  // the rows of box row 0
    for (int d = 0; d < N; ++d) {
      const Mask bit = static_cast<Mask>(1u << d);
      const Line* rows = in_row[d];
      const Line* cols = in_col[d];
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
          count += __builtin_popcount(x);
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
    }
    return false;
  }

  // Removes `bit` from the cells of row r in `columns`; true if any had it.
  bool ElimInRow(int r, uint32_t columns, Mask bit) {
    bool any = false;
    for (; columns; columns &= columns - 1) any |= Elim(r * N + __builtin_ctz(columns), bit);
    return any;
  }

  bool NakedSubset(int k) {
    for (const auto& unit : g_.units) {
      int cells[N];
      int m = 0, open = 0;
      for (int c : unit) {
        if (val_[c]) continue;
        ++open;
        const int p = BitCount16(cand_[c]);
        if (p >= 2 && p <= k) cells[m++] = c;
      }
      if (open <= k) continue;
      const bool found = ForCombos(m, k, [&](const int* idx) {
        Mask u = 0;
        for (int i = 0; i < k; ++i) u |= cand_[cells[idx[i]]];
        if (BitCount16(u) != k) return false;
        bool any = false;
        for (int c : unit) {
          bool member = false;
          for (int i = 0; i < k; ++i) member |= cells[idx[i]] == c;
          if (!member) any |= Elim(c, u);
        }
        return any;
      });
      if (found) return true;
    }
    return false;
  }

  bool HiddenSubset(int k) {
    for (const auto& unit : g_.units) {
      // pos[d]: the unit indices where digit d can go.
      uint32_t pos[N] = {};
      int digits[N];
      int m = 0, open = 0;
      for (int i = 0; i < N; ++i) {
        const int c = unit[i];
        if (val_[c]) continue;
        ++open;
        for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1)))
          pos[__builtin_ctz(b)] |= 1u << i;
      }
      if (open <= k) continue;
      for (int d = 0; d < N; ++d) {
        const int p = BitCount16(pos[d]);
        if (p >= 2 && p <= k) digits[m++] = d;
      }
      const bool found = ForCombos(m, k, [&](const int* idx) {
        uint32_t where = 0;
        Mask keep = 0;
        for (int i = 0; i < k; ++i) {
          where |= pos[digits[idx[i]]];
          keep |= static_cast<Mask>(1u << digits[idx[i]]);
        }
        if (BitCount16(where) != k) return false;
        bool any = false;
        for (uint32_t w = where; w; w &= w - 1) {
          any |= Elim(unit[__builtin_ctz(w)], static_cast<Mask>(kFull & ~keep));
        }
        return any;
      });
      if (found) return true;
    }
    return false;
  }

  // X-wing (k = 2) and swordfish (k = 3), rows as base then columns.
  bool Fish(int k) {
    // Per digit and line, the cross positions of the digit: one pass over
    // the grid for all digits and both directions.
    uint32_t in_row[N][N] = {}, in_col[N][N] = {};
    for (int c = 0; c < kCells; ++c) {
      const int i = g_.row[c], j = g_.col[c];
      for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1))) {
        const int d = __builtin_ctz(b);
        in_row[d][i] |= 1u << j;
        in_col[d][j] |= 1u << i;
      }
    }
    for (int d = 0; d < N; ++d) {
      const Mask bit = static_cast<Mask>(1u << d);
      for (int by_rows = 1; by_rows >= 0; --by_rows) {
        const uint32_t* lines = by_rows ? in_row[d] : in_col[d];  // per base line
        int base[N];
        int m = 0;
        for (int i = 0; i < N; ++i) {
          const int p = BitCount16(lines[i]);
          if (p >= 2 && p <= k) base[m++] = i;
        }
        const bool found = ForCombos(m, k, [&](const int* idx) {
          uint32_t cover = 0, in_base = 0;
          for (int i = 0; i < k; ++i) {
            cover |= lines[base[idx[i]]];
            in_base |= 1u << base[idx[i]];
          }
          if (BitCount16(cover) != k) return false;
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
    }
    return false;
  }

  // Pivot xy, wings xz and yz among its peers: z goes from every cell that
  // sees both wings. Pivots in cell order, wings in peer order.
  bool XYWing() {
    for (int pivot = 0; pivot < kCells; ++pivot) {
      const Mask xy = cand_[pivot];  // 0 for a placed cell
      if (BitCount16(xy) != 2) continue;
      // The two-candidate peers sharing one digit with the pivot, in peer
      // order: every wing is one of them.
      int wings[Geo::kPeers];
      int m = 0;
      for (int p : g_.peers[pivot]) {
        const Mask w = cand_[p];
        if (BitCount16(w) == 2 && BitCount16(w & xy) == 1) wings[m++] = p;
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
    return false;
  }

  const Geo& g_;
  std::array<Mask, kCells> cand_;
  std::array<uint8_t, kCells> val_;
  std::array<Mask, 3 * N> placed_;  // per unit, the digits placed in it
  int open_ = 0;
  bool broken_ = false;
};

}  // namespace

std::string_view TechniqueName(Technique t) { return kTable[static_cast<int>(t)].name; }
int TechniqueLevel(Technique t) { return kTable[static_cast<int>(t)].level; }

Difficulty Grade::ToDifficulty() const {
  Difficulty d;
  d.level = std::string(kLevels[level]);
  // Within a level, more steps at that level (or, for expert, more cells left
  // when logic ran out) is harder. f in [0, 1).
  double f = 0;
  if (level == 3) {
    f = std::min(0.999, unsolved_when_stuck / 81.0);
  } else {
    int at_level = 0;
    for (const TechniqueInfo& info : kTable) {
      if (info.level == level) at_level += uses[static_cast<int>(info.t)];
    }
    f = level == 0 ? std::min(0.999, at_level / 120.0) : at_level / (at_level + 4.0);
  }
  d.score = std::round((level + f) / 4.0 * 1000.0) / 1000.0;
  nlohmann::json techniques = nlohmann::json::object();
  std::string hardest = level == 3 ? "search" : "naked_single";
  for (const TechniqueInfo& info : kTable) {
    const int k = uses[static_cast<int>(info.t)];
    if (k == 0) continue;
    techniques[std::string(info.name)] = k;
    if (level < 3) hardest = std::string(info.name);
  }
  d.details = {{"clues", clues}, {"hardest", hardest}, {"techniques", techniques}};
  return d;
}

Grade GradePuzzle(const Shape& shape, const Grid& puzzle, int max_level) {
  return DispatchShape<Logic>(shape, [&]<typename L>() { return L(puzzle).Run(max_level); });
}

}  // namespace foundry::puzzles::sudoku
