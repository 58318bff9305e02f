// The bitboard solver (band_solver.h) against the cell-mask solver
// (solver.h) and dancing links (dlx.h): three separately written
// algorithms must count the same and find the same solutions.
#include "puzzles/sudoku/band_solver.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/sudoku/dlx.h"
#include "puzzles/sudoku/shape.h"
#include "puzzles/sudoku/solver.h"

namespace foundry::puzzles::sudoku {
namespace {

const Shape k9{3, 3};

Grid G(const std::string& s) {
  auto g = GridFromString(k9, s);
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return g.ok() ? *g : Grid(81, 0);
}

int BandCount(const Grid& g, int limit, Grid* first = nullptr) {
  if (first) first->assign(81, 0);
  return band::CountSolutions(g.data(), limit, first ? first->data() : nullptr);
}

// A random full grid and a random subset of its clues, each kept with one
// probability drawn from [lo, lo + span).
struct Subset {
  Grid full, clues;
};
Subset RandomSubset(Rng& rng, double lo, double span) {
  Subset s{RandomSolution(k9, rng), {}};
  s.clues = s.full;
  const double keep = lo + span * static_cast<double>(rng.Below(1000)) / 1000.0;
  for (auto& v : s.clues) {
    if (!rng.Chance(keep)) v = 0;
  }
  return s;
}

TEST(BandSolver, KnownAnswers) {
  Grid a;
  ASSERT_EQ(
      BandCount(
          G("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"), 2,
          &a),
      1);
  EXPECT_EQ(GridToString(a),
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
  // Hard ones, where singles and the band rule alone do not finish.
  for (const char* p : {
           "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
           "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
           "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
           "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
       }) {
    Grid mine, dlx;
    ASSERT_EQ(BandCount(G(p), 2, &mine), 1) << p;
    ASSERT_EQ(DlxCountSolutions(k9, G(p), 2, &dlx), 1) << p;
    EXPECT_EQ(mine, dlx) << p;
  }
}

TEST(BandSolver, EmptyFullAndClashingGrids) {
  const Grid empty(81, 0);
  Grid first;
  EXPECT_EQ(BandCount(empty, 2, &first), 2);
  EXPECT_TRUE(IsCompleteSolution(k9, first));
  EXPECT_EQ(BandCount(empty, 50), 50);
  Rng rng(5);
  const Grid full = RandomSolution(k9, rng);
  EXPECT_EQ(BandCount(full, 2, &first), 1);
  EXPECT_EQ(first, full);
  Grid clash = full;
  std::swap(clash[0], clash[1]);  // two digits now repeat in their columns
  EXPECT_EQ(BandCount(clash, 2), 0);
  clash = Grid(81, 0);
  clash[0] = clash[80] = 4;
  clash[8] = 4;  // row 0 twice
  EXPECT_EQ(BandCount(clash, 2), 0);
  EXPECT_FALSE(band::HasOther(clash.data(), 40, 5));  // no solution at all
  EXPECT_TRUE(band::HasOther(empty.data(), 40, 5));
}

// Random subsets of random full grids, from very sparse to nearly full,
// plus a wrong digit now and then: counts up to 3 agree with both other
// solvers, and a unique solution is the same grid.
TEST(BandSolver, DifferentialOnRandomSubsets) {
  std::map<int, int> seen;
  Rng rng(2026);
  for (int t = 0; t < 1500; ++t) {
    Grid g = RandomSubset(rng, 0.15, 0.7).clues;
    if (t % 5 == 0) {  // a wrong but locally legal-looking digit
      const int cell = static_cast<int>(rng.Below(81));
      g[cell] = static_cast<uint8_t>(1 + rng.Below(9));
    }
    Grid mine, other;
    const int a = BandCount(g, 3, &mine);
    const int b = CountSolutions(k9, g, 3, &other);
    ASSERT_EQ(a, b) << GridToString(g);
    if (t % 10 == 0) {
      ASSERT_EQ(a, DlxCountSolutions(k9, g, 3)) << GridToString(g);
    }
    if (a == 1) {
      ASSERT_EQ(mine, other) << GridToString(g);
    }
    if (a >= 1) {
      ASSERT_TRUE(IsCompleteSolution(k9, mine));
      for (int i = 0; i < 81; ++i) {
        if (g[i]) {
          ASSERT_EQ(mine[i], g[i]);
        }
      }
    }
    ++seen[a];
  }
  EXPECT_GT(seen[0], 50);
  EXPECT_GT(seen[1], 100);
  EXPECT_GT(seen[3], 100);
}

// HasOther is "a solution with this cell different", checked against
// counting with each other digit written into the cell.
TEST(BandSolver, HasOtherMatchesCountingOtherDigits) {
  Rng rng(77);
  int yes = 0, no = 0;
  for (int t = 0; t < 400; ++t) {
    auto [full, g] = RandomSubset(rng, 0.25, 0.3);
    const int cell = static_cast<int>(rng.Below(81));
    const int value = full[cell];
    g[cell] = static_cast<uint8_t>(value);
    bool expect = false;
    Grid h = g;
    for (int v = 1; v <= 9 && !expect; ++v) {
      if (v == value) continue;
      h[cell] = static_cast<uint8_t>(v);
      expect = CountSolutions(k9, h, 1) > 0;
    }
    ASSERT_EQ(band::HasOther(g.data(), cell, value), expect) << GridToString(g) << " cell " << cell;
    // The same question from clues kept one cell at a time, as the removal
    // loop keeps them: every clue flipped in, the asked cell out again.
    band::Givens givens;
    for (int c = 0; c < 81; ++c) {
      if (g[c]) givens.Flip(c, g[c]);
    }
    givens.Flip(cell, value);
    ASSERT_EQ(band::HasOther(givens, cell, value), expect) << GridToString(g) << " cell " << cell;
    ++(expect ? yes : no);
  }
  EXPECT_GT(yes, 50);
  EXPECT_GT(no, 50);
}

// Allows and HiddenSingle, the removal loop's checks without a search,
// against their definitions read cell by cell from the grid.
TEST(BandSolver, AllowsAndHiddenSingleMatchTheirDefinitions) {
  auto same_row = [](int a, int b) { return a / 9 == b / 9; };
  auto same_col = [](int a, int b) { return a % 9 == b % 9; };
  auto same_box = [](int a, int b) { return a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3; };
  Rng rng(78);
  int singles = 0, not_singles = 0;
  for (int t = 0; t < 200; ++t) {
    const Subset subset = RandomSubset(rng, 0.2, 0.6);
    const Grid& full = subset.full;
    const Grid& g = subset.clues;  // a reference, not a binding: the lambda below captures it
    band::Givens givens;
    for (int c = 0; c < 81; ++c) {
      if (g[c]) givens.Flip(c, g[c]);
    }
    // Digit v may go at empty cell c: no v given in its row, column or box.
    auto open_to = [&](int c, int v) {
      if (g[c]) return false;
      for (int o = 0; o < 81; ++o) {
        if (g[o] == v && (same_row(o, c) || same_col(o, c) || same_box(o, c))) return false;
      }
      return true;
    };
    for (int cell = 0; cell < 81; ++cell) {
      if (g[cell]) continue;
      for (int v = 1; v <= 9; ++v) {
        ASSERT_EQ(givens.Allows(cell, v), open_to(cell, v)) << GridToString(g) << " " << cell;
      }
      const int v = full[cell];
      bool expect = false;
      for (auto unit : {+same_row, +same_col, +same_box}) {
        bool alone = true;
        for (int c = 0; c < 81 && alone; ++c) {
          if (c != cell && unit(c, cell) && open_to(c, v)) alone = false;
        }
        expect |= alone;
      }
      ASSERT_EQ(band::HiddenSingle(givens, cell, v), expect) << GridToString(g) << " " << cell;
      ++(expect ? singles : not_singles);
    }
  }
  EXPECT_GT(singles, 100);
  EXPECT_GT(not_singles, 100);
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
