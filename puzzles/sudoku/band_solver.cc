#include "puzzles/sudoku/band_solver.h"

#include <array>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace foundry::puzzles::sudoku::band {
namespace {

// A band is rows 3b..3b+2; within it cell (r, c) is bit 9r + c. Word w of a
// State is digit w % 9 in band w / 9: a band's nine words are adjacent.
constexpr uint32_t kAll = (1u << 27) - 1;
constexpr uint32_t kRow = 0x1ff;
// The word of digit d (0..8) in band b.
constexpr int W(int d, int b) { return 9 * b + d; }

// The mini-rows (row r x box k) of a band's word that hold a cell, as bit
// 3k + r, by shifts rather than a table per row: fold each box's three
// columns onto its first (bits 9r + 3k), then move row r down by 8r.
constexpr unsigned MiniRows(uint32_t x) {
  const uint32_t m = (x | x >> 1 | x >> 2) & 0x1249249u;
  return (m | m >> 8 | m >> 16) & 0x1ffu;
}
static_assert(MiniRows(1u << (9 * 1 + 5)) == 1u << (3 * 1 + 1), "row 1, column 5: box 1");
static_assert(MiniRows(1u << (9 * 2 + 8) | 1u << 0) == (1u << (3 * 2 + 2) | 1u), "two cells");
static_assert(MiniRows(kAll) == 0x1ff, "every mini-row");

// For the mini-rows present (MiniRows' bits), those (now as bit 3r + k)
// that belong to some row-to-box permutation drawn entirely from present
// ones; 0 when none is.
constexpr std::array<uint16_t, 512> kPermAllowed = [] {
  constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::array<uint16_t, 512> t{};
  for (unsigned m = 0; m < 512; ++m) {
    for (const auto& p : kPerms) {  // row r takes box p[r]
      const unsigned present = 1u << (3 * p[0]) | 1u << (3 * p[1] + 1) | 1u << (3 * p[2] + 2);
      const unsigned used = 1u << p[0] | 1u << (3 + p[1]) | 1u << (6 + p[2]);
      if ((m & present) == present) t[m] = static_cast<uint16_t>(t[m] | used);
    }
  }
  return t;
}();

// The whole 9-bit row when it has two cells or more, else 0.
constexpr std::array<uint16_t, 512> kMultiRow = [] {
  std::array<uint16_t, 512> t{};
  for (unsigned x = 0; x < 512; ++x) t[x] = (x & (x - 1)) ? kRow : 0;
  return t;
}();

// The 27 cells of a set of mini-rows.
constexpr std::array<uint32_t, 512> kMiniCells = [] {
  std::array<uint32_t, 512> t{};
  for (unsigned m = 0; m < 512; ++m) {
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 3; ++k) {
        if (m >> (3 * r + k) & 1) t[m] |= 7u << (9 * r + 3 * k);
      }
    }
  }
  return t;
}();

// The other cells of a band that share a row, column or box with bit i.
constexpr std::array<uint32_t, 27> kBandPeers = [] {
  std::array<uint32_t, 27> t{};
  for (int i = 0; i < 27; ++i) {
    for (int j = 0; j < 27; ++j) {
      const bool row = i / 9 == j / 9, col = i % 9 == j % 9, box = i % 9 / 3 == j % 9 / 3;
      if (i != j && (row || col || box)) t[i] |= 1u << j;
    }
  }
  return t;
}();

// Column c in each row of a band.
constexpr uint32_t ColumnCells(uint32_t cols9) { return cols9 | cols9 << 9 | cols9 << 18; }
// Rows (3-bit) and boxes (3-bit) of a band as cells.
constexpr uint32_t RowCells(uint32_t rows3) {
  return (rows3 & 1 ? kRow : 0) | (rows3 & 2 ? kRow << 9 : 0) | (rows3 & 4 ? kRow << 18 : 0);
}
constexpr uint32_t BoxCells(uint32_t boxes3) {
  return ColumnCells((boxes3 & 1 ? 7u : 0) | (boxes3 & 2 ? 7u << 3 : 0) |
                     (boxes3 & 4 ? 7u << 6 : 0));
}

// RowCells and BoxCells of each 3-bit set, for Build's 27 words.
constexpr std::array<uint32_t, 8> kRowCells = [] {
  std::array<uint32_t, 8> t{};
  for (uint32_t m = 0; m < 8; ++m) t[m] = RowCells(m);
  return t;
}();
constexpr std::array<uint32_t, 8> kBoxCells = [] {
  std::array<uint32_t, 8> t{};
  for (uint32_t m = 0; m < 8; ++m) t[m] = BoxCells(m);
  return t;
}();

// Per bit i of a band: column i % 9 in the band's three rows.
constexpr std::array<uint32_t, 27> kColumnOfBit = [] {
  std::array<uint32_t, 27> t{};
  for (int i = 0; i < 27; ++i) t[i] = ColumnCells(1u << (i % 9));
  return t;
}();
// The digit (w % 9) and the band (w / 9) of each word w, without dividing.
constexpr std::array<uint8_t, 27> kWordDigit = [] {
  std::array<uint8_t, 27> t{};
  for (int w = 0; w < 27; ++w) t[w] = static_cast<uint8_t>(w % 9);
  return t;
}();
constexpr std::array<uint8_t, 27> kWordBand = [] {
  std::array<uint8_t, 27> t{};
  for (int w = 0; w < 27; ++w) t[w] = static_cast<uint8_t>(w / 9);
  return t;
}();
// The two other bands of band b: kOtherBand[b] and kOtherBand[b + 1].
constexpr int kOtherBand[4] = {1, 2, 0, 1};

// f and seen have a 28th word, always 0 in both, so that ChangedWords reads
// them as seven 16-byte vectors.
struct alignas(16) State {
  uint32_t f[28];        // word W(d, b): cells of band b where digit d may go
  uint32_t seen[28];     // f as last reduced; a word equal to it is skipped
  uint32_t open[3];      // cells of each band without a digit yet
  uint16_t col_done[9];  // per digit, the columns where it is placed
};

// Puts digit d on bit i of band b. REQUIRES: s.f[W(d, b)] has bit i.
inline void Place(State& s, int d, int b, int i) {
  const uint32_t bit = 1u << i;
  s.open[b] &= ~bit;
  uint32_t* fb = &s.f[W(0, b)];
  for (int e = 0; e < 9; ++e) fb[e] &= ~bit;
  fb[d] = (fb[d] & ~kBandPeers[i]) | bit;  // bit came back with the loop
  const uint32_t col = kColumnOfBit[i];
  s.f[W(d, kOtherBand[b])] &= ~col;
  s.f[W(d, kOtherBand[b + 1])] &= ~col;
  s.col_done[d] = static_cast<uint16_t>(s.col_done[d] | (col & kRow));
}

// Bit w for each word w that differs from its last reduced value. One
// compare per four words instead of a branch per word: which words changed
// is data, so those branches are hard to predict.
inline uint32_t ChangedWords(const State& s) {
#if defined(__SSE2__)
  uint32_t same = 0;
  for (int v = 0; v < 7; ++v) {
    const __m128i f = _mm_load_si128(reinterpret_cast<const __m128i*>(&s.f[4 * v]));
    const __m128i seen = _mm_load_si128(reinterpret_cast<const __m128i*>(&s.seen[4 * v]));
    same |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f, seen))))
            << (4 * v);
  }
  return ~same & kAll;  // kAll: a bit per word as well as per cell
#else
  uint32_t changed = 0;
  for (int w = 0; w < 27; ++w) changed |= static_cast<uint32_t>(s.f[w] != s.seen[w]) << w;
  return changed;
#endif
}

// The band rule on every changed word until it places nothing more (it is
// the cheapest step), then hidden singles in columns and naked singles; all
// again until nothing changes. False on a contradiction. The order in which
// words are reduced does not change the result: every step only removes
// candidates, and what it removes stays removable once others are gone, so
// every order ends in the same state (or every order in a contradiction).
bool Propagate(State& s) {
  unsigned digits = 0;  // digits with a word reduced since their columns were checked
  for (;;) {
    bool progress = false;
    for (uint32_t changed = ChangedWords(s); changed; changed &= changed - 1) {
      const int w = __builtin_ctz(changed);
      const int d = kWordDigit[w], b = kWordBand[w];
      digits |= 1u << d;
      uint32_t x = s.f[w];
      const unsigned allowed = kPermAllowed[MiniRows(x)];
      if (!allowed) return false;
      x &= kMiniCells[allowed];
      s.f[w] = x;
      s.seen[w] = x;  // a placement below changes f[w] again, so it comes back
      // A row left with one cell for d, still open, takes d. The rule
      // leaves every row a cell, in three different boxes, so these
      // placements cannot take each other's cells.
      const uint32_t multi =
          kMultiRow[x & kRow] | kMultiRow[x >> 9 & kRow] << 9 | kMultiRow[x >> 18] << 18;
      for (uint32_t single = x & s.open[b] & ~multi; single; single &= single - 1) {
        Place(s, d, b, __builtin_ctz(single));
        progress = true;
      }
    }
    if (progress) continue;
    for (; digits; digits &= digits - 1) {  // hidden singles in columns
      const int d = __builtin_ctz(digits);
      uint32_t once = 0, twice = 0;
      for (int b = 0; b < 3; ++b) {
        for (int r = 0; r < 3; ++r) {
          const uint32_t v = s.f[W(d, b)] >> (9 * r) & kRow;
          twice |= once & v;
          once |= v;
        }
      }
      if (once != kRow) return false;
      for (uint32_t single = once & ~twice & ~s.col_done[d]; single; single &= single - 1) {
        const int c = __builtin_ctz(single);
        const uint32_t col = ColumnCells(1u << c);
        int b = 0;
        while (b < 3 && !(s.f[W(d, b)] & col)) ++b;
        if (b == 3) return false;  // an earlier placement took its last cell
        Place(s, d, b, __builtin_ctz(s.f[W(d, b)] & col));
        progress = true;
      }
    }
    for (int b = 0; b < 3; ++b) {  // naked singles
      const uint32_t open = s.open[b];
      if (!open) continue;
      uint32_t once = 0, twice = 0;
      for (int e = 0; e < 9; ++e) {
        const uint32_t m = s.f[W(e, b)];
        twice |= once & m;
        once |= m;
      }
      if ((once & open) != open) return false;
      for (uint32_t single = once & ~twice & open; single; single &= single - 1) {
        const int i = __builtin_ctz(single);
        const uint32_t bit = 1u << i;
        int e = 0;
        while (e < 9 && !(s.f[W(e, b)] & bit)) ++e;
        if (e == 9) return false;
        Place(s, e, b, i);
        progress = true;
      }
    }
    if (!progress) return true;
  }
}

// Builds the words from where each digit is given (per digit: rows, columns
// and boxes; per band: the cells given, and per word the digit's own cell);
// `skip` (a cell, or -1) is left without `skip_not` (a digit 1..9).
void Build(State& s, const uint16_t* rows, const uint16_t* cols, const uint16_t* boxes,
           const uint32_t* given, const uint32_t* given_d, int skip, int skip_not) {
  for (int d = 0; d < 9; ++d) {
    const uint32_t col = ColumnCells(cols[d]);
    for (int b = 0; b < 3; ++b) {
      const uint32_t blocked =
          kRowCells[rows[d] >> (3 * b) & 7] | col | kBoxCells[boxes[d] >> (3 * b) & 7] | given[b];
      s.f[W(d, b)] = (kAll & ~blocked) | given_d[W(d, b)];
    }
    s.col_done[d] = cols[d];
  }
  for (int w = 0; w < 27; ++w) s.seen[w] = ~0u;  // never a word: every word is reduced once
  s.f[27] = s.seen[27] = 0;
  for (int b = 0; b < 3; ++b) s.open[b] = kAll & ~given[b];
  if (skip >= 0) {
    const int b = skip / 27;
    s.f[W(skip_not - 1, b)] &= ~(1u << (skip % 27));
  }
}

// Loads the givens, except that `skip` is left empty without `skip_not`
// (a digit 1..9). False when two givens clash.
bool Load(State& s, const uint8_t* g, int skip, int skip_not) {
  uint16_t rows[9] = {}, cols[9] = {}, boxes[9] = {};
  uint32_t given[3] = {};
  uint32_t given_d[27] = {};
  for (int cell = 0; cell < 81; ++cell) {
    const int v = g[cell];
    if (!v || cell == skip) continue;
    const int d = v - 1, r = cell / 9, c = cell % 9, k = r / 3 * 3 + c / 3;
    if ((rows[d] >> r | cols[d] >> c | boxes[d] >> k) & 1) return false;
    rows[d] = static_cast<uint16_t>(rows[d] | 1u << r);
    cols[d] = static_cast<uint16_t>(cols[d] | 1u << c);
    boxes[d] = static_cast<uint16_t>(boxes[d] | 1u << k);
    const uint32_t bit = 1u << (9 * (r % 3) + c);
    given[r / 3] |= bit;
    given_d[W(d, r / 3)] |= bit;
  }
  Build(s, rows, cols, boxes, given, given_d, skip, skip_not);
  return true;
}

struct Counter {
  int limit;
  int count = 0;
  uint8_t* first = nullptr;
  Rng* rng = nullptr;  // digits tried in random order when set
};

void Search(State& s, Counter& k) {
  if (!Propagate(s)) return;
  int band = -1;
  uint32_t pick = 0;
  for (int b = 0; b < 3 && !pick; ++b) {  // a cell with two candidates, if any
    const uint32_t open = s.open[b];
    if (!open) continue;
    uint32_t once = 0, twice = 0, thrice = 0;
    for (int e = 0; e < 9; ++e) {
      const uint32_t m = s.f[W(e, b)];
      thrice |= twice & m;
      twice |= once & m;
      once |= m;
    }
    const uint32_t two = twice & ~thrice & open;
    if (two) {
      band = b;
      pick = two & (0u - two);
    } else if (band < 0) {
      band = b;
    }
  }
  if (band < 0) {  // solved
    if (k.count == 0 && k.first) {
      for (int w = 0; w < 27; ++w) {
        for (uint32_t m = s.f[w]; m; m &= m - 1) {
          const int i = __builtin_ctz(m);
          k.first[27 * (w / 9) + i] = static_cast<uint8_t>(w % 9 + 1);
        }
      }
    }
    ++k.count;
    return;
  }
  if (!pick) pick = s.open[band] & (0u - s.open[band]);
  const int i = __builtin_ctz(pick);
  int digits[9], n = 0;
  for (int e = 0; e < 9; ++e) {
    if (s.f[W(e, band)] & pick) digits[n++] = e;
  }
  if (k.rng) {
    for (int j = n - 1; j > 0; --j) std::swap(digits[j], digits[k.rng->Below(j + 1)]);
  }
  for (int j = 0; j < n; ++j) {
    if (j + 1 < n) {
      State t = s;
      Place(t, digits[j], band, i);
      Search(t, k);
    } else {
      Place(s, digits[j], band, i);  // the last choice reuses this state
      Search(s, k);
    }
    if (k.count >= k.limit) return;
  }
}

}  // namespace

int CountSolutions(const uint8_t* givens, int limit, uint8_t* first) {
  State s;
  if (!Load(s, givens, -1, 0)) return 0;
  Counter k{limit};
  k.first = first;
  Search(s, k);
  return k.count;
}

bool HasOther(const uint8_t* givens, int cell, int value) {
  Givens g;
  for (int c = 0; c < 81; ++c) {
    if (c == cell || !givens[c]) continue;
    if (!g.Allows(c, givens[c])) return false;  // two givens clash: no solution
    g.Flip(c, givens[c]);
  }
  return HasOther(g, cell, value);
}

void Givens::Flip(int cell, int v) {
  const int d = v - 1, r = cell / 9, c = cell % 9, k = r / 3 * 3 + c / 3;
  rows_[d] = static_cast<uint16_t>(rows_[d] ^ 1u << r);
  cols_[d] = static_cast<uint16_t>(cols_[d] ^ 1u << c);
  boxes_[d] = static_cast<uint16_t>(boxes_[d] ^ 1u << k);
  const uint32_t bit = 1u << (9 * (r % 3) + c);
  given_[r / 3] ^= bit;
  given_d_[W(d, r / 3)] ^= bit;
}

bool Givens::Allows(int cell, int v) const {
  const int d = v - 1, r = cell / 9, c = cell % 9, k = r / 3 * 3 + c / 3;
  return !((rows_[d] >> r | cols_[d] >> c | boxes_[d] >> k) & 1);
}

bool HiddenSingle(const Givens& givens, int cell, int value) {
  const int d = value - 1, band = cell / 27, i = cell % 27;
  // Per band, the cells still open to d: not given, and no d given in
  // their row, column or box.
  uint32_t open[3];
  for (int b = 0; b < 3; ++b) {
    const uint32_t blocked = RowCells(givens.rows_[d] >> (3 * b) & 7) |
                             ColumnCells(givens.cols_[d]) |
                             BoxCells(givens.boxes_[d] >> (3 * b) & 7) | givens.given_[b];
    open[b] = kAll & ~blocked;
  }
  const uint32_t bit = 1u << i;
  const uint32_t row = kRow << (9 * (i / 9));
  const uint32_t box = BoxCells(1u << (i % 9 / 3));
  const uint32_t col = ColumnCells(1u << (i % 9));
  if ((open[band] & row) == bit || (open[band] & box) == bit) return true;
  return (open[band] & col) == bit && !(open[(band + 1) % 3] & col) &&
         !(open[(band + 2) % 3] & col);
}

bool HasOther(const Givens& givens, int cell, int value) {
  State s;
  Build(s, givens.rows_, givens.cols_, givens.boxes_, givens.given_, givens.given_d_, cell, value);
  Counter k{1};
  Search(s, k);
  return k.count > 0;
}

bool SolvesWithoutSearch(const uint8_t* givens) {
  State s;
  if (!Load(s, givens, -1, 0) || !Propagate(s)) return false;
  return (s.open[0] | s.open[1] | s.open[2]) == 0;
}

void RandomSolution(Rng& rng, uint8_t* out) {
  // The three boxes of the diagonal share no row, column or box: each gets
  // its own random permutation. The search completes the grid trying digits
  // in random order (with 27 cells given it rarely backtracks).
  uint8_t g[81] = {};
  for (int box = 0; box < 3; ++box) {
    uint8_t perm[9];
    for (int i = 0; i < 9; ++i) perm[i] = static_cast<uint8_t>(i + 1);
    for (int i = 8; i > 0; --i) std::swap(perm[i], perm[rng.Below(i + 1)]);
    for (int i = 0; i < 9; ++i) g[(3 * box + i / 3) * 9 + 3 * box + i % 3] = perm[i];
  }
  State s;
  Load(s, g, -1, 0);
  Counter k{1};
  k.first = out;
  k.rng = &rng;
  Search(s, k);
}

}  // namespace foundry::puzzles::sudoku::band
