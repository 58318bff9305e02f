#include "puzzles/sudoku/grader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "puzzles/bit_count.h"

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

// Row, column and box units and peers of one shape.
struct Geometry {
  Shape shape;
  int n = 0, cells = 0;
  std::vector<std::vector<int>> units;  // 3n units: rows, columns, boxes
  std::vector<int> row, col, box;       // per cell
  std::vector<std::vector<int>> peers;  // per cell

  explicit Geometry(Shape s) : shape(s), n(s.n()), cells(s.cells()) {
    units.assign(3 * n, {});
    row.resize(cells);
    col.resize(cells);
    box.resize(cells);
    peers.resize(cells);
    for (int c = 0; c < cells; ++c) {
      row[c] = c / n;
      col[c] = c % n;
      box[c] = s.BoxOf(row[c], col[c]);
      units[row[c]].push_back(c);
      units[n + col[c]].push_back(c);
      units[2 * n + box[c]].push_back(c);
    }
    for (int c = 0; c < cells; ++c) {
      for (int p = 0; p < cells; ++p) {
        if (p != c && Sees(c, p)) peers[c].push_back(p);
      }
    }
  }
  bool Sees(int a, int b) const { return row[a] == row[b] || col[a] == col[b] || box[a] == box[b]; }
};

const Geometry& GeometryFor(const Shape& shape) {
  static const std::vector<Geometry> kAll = [] {
    std::vector<Geometry> v;
    for (const Shape& s : SupportedShapes()) v.emplace_back(s);
    return v;
  }();
  for (const Geometry& g : kAll) {
    if (g.shape == shape) return g;
  }
  return kAll[0];
}

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

class Logic {
 public:
  Logic(const Geometry& g, const Grid& puzzle)
      : g_(g), n_(g.n), full_(static_cast<Mask>((1u << g.n) - 1)) {
    std::fill_n(cand_.begin(), g.cells, full_);
    std::fill_n(val_.begin(), g.cells, uint8_t{0});
    placed_.fill(0);
    open_ = g.cells;
    for (int c = 0; c < g.cells; ++c) {
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
    grade.clues = g_.cells - open_;
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
    grade.filled.assign(val_.begin(), val_.begin() + g_.cells);
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
    Mask& in_col = placed_[n_ + g_.col[c]];
    Mask& in_box = placed_[2 * n_ + g_.box[c]];
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
    for (int c = 0; c < g_.cells && !broken_; ++c) {
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
    for (int u = 0; u < 3 * n_; ++u) {
      const std::vector<int>& unit = g_.units[u];
      Mask once = 0, twice = 0;
      for (int c : unit) {
        twice |= once & cand_[c];
        once |= cand_[c];
      }
      const Mask placed = placed_[u];
      if ((once | placed) != full_) {
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

  bool LockedCandidates() {
    // Where each digit can go in each unit, as the set of rows, columns and
    // boxes of those cells: one pass over the grid for all digits, then the
    // digits in order (the first that makes progress wins, as before).
    struct Where {
      uint16_t rows, cols, boxes;
      uint8_t count, any_cell;
    };
    Where where[3 * kMaxN][kMaxN];
    for (int u = 0; u < 3 * n_; ++u) {
      std::fill_n(where[u], n_, Where{});
      for (int c : g_.units[u]) {
        if (val_[c]) continue;
        for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1))) {
          Where& w = where[u][__builtin_ctz(b)];
          w.rows = static_cast<uint16_t>(w.rows | 1u << g_.row[c]);
          w.cols = static_cast<uint16_t>(w.cols | 1u << g_.col[c]);
          w.boxes = static_cast<uint16_t>(w.boxes | 1u << g_.box[c]);
          w.any_cell = static_cast<uint8_t>(c);
          ++w.count;
        }
      }
    }
    for (int d = 0; d < n_; ++d) {
      const Mask bit = static_cast<Mask>(1u << d);
      for (int u = 0; u < 3 * n_; ++u) {
        const Where& w = where[u][d];
        if (w.count < 2) continue;
        bool progress = false;
        if (u >= 2 * n_) {  // pointing: a box's d confined to one line
          if (BitCount16(w.rows) == 1)
            progress |= ElimOutside(g_.units[g_.row[w.any_cell]], u, bit);
          if (BitCount16(w.cols) == 1)
            progress |= ElimOutside(g_.units[n_ + g_.col[w.any_cell]], u, bit);
        } else if (BitCount16(w.boxes) == 1) {  // claiming: a line's d confined to one box
          progress |= ElimOutside(g_.units[2 * n_ + g_.box[w.any_cell]], u, bit);
        }
        if (progress) return true;
      }
    }
    return false;
  }

  // Removes bit from the cells of `target` that are not in unit `keep`.
  bool ElimOutside(const std::vector<int>& target, int keep, Mask bit) {
    bool any = false;
    for (int c : target) {
      if (InUnit(c, keep)) continue;
      any |= Elim(c, bit);
    }
    return any;
  }

  bool InUnit(int c, int u) const {
    if (u < n_) return g_.row[c] == u;
    if (u < 2 * n_) return g_.col[c] == u - n_;
    return g_.box[c] == u - 2 * n_;
  }

  bool NakedSubset(int k) {
    for (const auto& unit : g_.units) {
      int cells[kMaxN];
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
      uint32_t pos[kMaxN] = {};
      int digits[kMaxN];
      int m = 0, open = 0;
      for (int i = 0; i < n_; ++i) {
        const int c = unit[i];
        if (val_[c]) continue;
        ++open;
        for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1)))
          pos[__builtin_ctz(b)] |= 1u << i;
      }
      if (open <= k) continue;
      for (int d = 0; d < n_; ++d) {
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
          any |= Elim(unit[__builtin_ctz(w)], static_cast<Mask>(full_ & ~keep));
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
    uint32_t in_row[kMaxN][kMaxN] = {}, in_col[kMaxN][kMaxN] = {};
    for (int c = 0; c < g_.cells; ++c) {
      if (val_[c]) continue;
      const int i = g_.row[c], j = g_.col[c];
      for (Mask b = cand_[c]; b; b = static_cast<Mask>(b & (b - 1))) {
        const int d = __builtin_ctz(b);
        in_row[d][i] |= 1u << j;
        in_col[d][j] |= 1u << i;
      }
    }
    for (int d = 0; d < n_; ++d) {
      const Mask bit = static_cast<Mask>(1u << d);
      for (int by_rows = 1; by_rows >= 0; --by_rows) {
        const uint32_t* lines = by_rows ? in_row[d] : in_col[d];  // per base line
        int base[kMaxN];
        int m = 0;
        for (int i = 0; i < n_; ++i) {
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
          for (int i = 0; i < n_; ++i) {
            if (in_base & (1u << i)) continue;
            for (uint32_t w = cover; w; w &= w - 1) {
              const int j = __builtin_ctz(w);
              any |= Elim(by_rows ? i * n_ + j : j * n_ + i, bit);
            }
          }
          return any;
        });
        if (found) return true;
      }
    }
    return false;
  }

  bool XYWing() {
    for (int pivot = 0; pivot < g_.cells; ++pivot) {
      if (val_[pivot] || BitCount16(cand_[pivot]) != 2) continue;
      const Mask xy = cand_[pivot];
      for (int a : g_.peers[pivot]) {
        if (val_[a] || BitCount16(cand_[a]) != 2) continue;
        const Mask shared_a = cand_[a] & xy;
        if (BitCount16(shared_a) != 1) continue;
        const Mask z = static_cast<Mask>(cand_[a] & ~xy);
        const Mask want_b = static_cast<Mask>((xy & ~shared_a) | z);
        for (int b : g_.peers[pivot]) {
          if (b == a || val_[b] || cand_[b] != want_b) continue;
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

  const Geometry& g_;
  const int n_;
  const Mask full_;
  std::array<Mask, kMaxCells> cand_;
  std::array<uint8_t, kMaxCells> val_;
  std::array<Mask, 3 * kMaxN> placed_;  // per unit, the digits placed in it
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
  Logic logic(GeometryFor(shape), puzzle);
  return logic.Run(max_level);
}

}  // namespace foundry::puzzles::sudoku
