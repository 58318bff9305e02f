// The three line rules against brute force on small lines: the complete
// solvers (line_solver.h, the generator's automaton; placement_solver.h,
// Verify's placements) must settle exactly the cells every agreeing line
// shares, and the simple rules (simple_rules.h) a subset of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "puzzles/nonogram/line_solver.h"
#include "puzzles/nonogram/placement_solver.h"
#include "puzzles/nonogram/simple_rules.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::nonogram {
namespace {

struct Truth {
  bool any = false;
  uint64_t fill = 0, empty = 0;  // cells the same in every agreeing line
};

Truth BruteForce(const Clue& clue, int n, uint64_t fill, uint64_t empty) {
  Truth t;
  uint64_t always = LowBits(n), never = LowBits(n);
  for (uint64_t line = 0; line < (1ULL << n); ++line) {
    if ((line & empty) != 0 || (line & fill) != fill || RunsOf(line, n) != clue) continue;
    t.any = true;
    always &= line;
    never &= ~line;
  }
  t.fill = always;
  t.empty = never;
  return t;
}

TEST(NonogramLineTest, RunsOf) {
  EXPECT_EQ(RunsOf(0b0110111, 7), (Clue{3, 2}));
  EXPECT_EQ(RunsOf(0, 7), Clue{});
  EXPECT_EQ(RunsOf(LowBits(40), 40), Clue{40});
  EXPECT_TRUE(ClueFits({3, 1}, 5));
  EXPECT_FALSE(ClueFits({3, 2}, 5));
  EXPECT_FALSE(ClueFits({0}, 5));
}

TEST(NonogramLineTest, SolversAgreeWithBruteForce) {
  Rng rng(17);
  int checked = 0, contradictions = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const int n = static_cast<int>(rng.Between(1, 11));
    // A clue from a random line (so it fits), then known cells from another
    // random line or the same one (so both consistent and contradictory
    // lines occur).
    const uint64_t source = rng.Next() & LowBits(n);
    const Clue clue = RunsOf(source, n);
    const uint64_t other = rng.Chance(0.5) ? source : rng.Next() & LowBits(n);
    const uint64_t known = rng.Next() & rng.Next() & LowBits(n);
    const uint64_t fill = other & known, empty = ~other & known;
    const Truth t = BruteForce(clue, n, fill, empty);

    uint64_t af = fill, ae = empty;
    const bool a_ok = SolveLine(LineAutomaton::Build(clue, n), af, ae);
    std::vector<int8_t> cells(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
      cells[static_cast<size_t>(c)] = (fill >> c) & 1    ? kFilled
                                      : (empty >> c) & 1 ? kEmpty
                                                         : kUnknown;
    }
    const bool p_ok = PlaceLine(clue, cells);
    uint64_t sf = fill, se = empty;
    const bool s_ok = SimpleLine(LineAutomaton::Build(clue, n), sf, se);
    ASSERT_EQ(a_ok, t.any) << trial;
    ASSERT_EQ(p_ok, t.any) << trial;
    if (!t.any) {
      ++contradictions;
      continue;
    }
    ++checked;
    EXPECT_EQ(af, t.fill) << trial;
    EXPECT_EQ(ae, t.empty) << trial;
    uint64_t pf = 0, pe = 0;
    for (int c = 0; c < n; ++c) {
      pf |= static_cast<uint64_t>(cells[static_cast<size_t>(c)] == kFilled) << c;
      pe |= static_cast<uint64_t>(cells[static_cast<size_t>(c)] == kEmpty) << c;
    }
    EXPECT_EQ(pf, t.fill) << trial;
    EXPECT_EQ(pe, t.empty) << trial;
    // The simple rules are sound (a subset of the truth) and find a
    // placement whenever there is one.
    ASSERT_TRUE(s_ok) << trial;
    EXPECT_EQ(sf & ~t.fill, 0u) << trial;
    EXPECT_EQ(se & ~t.empty, 0u) << trial;
  }
  EXPECT_GT(checked, 3000);
  EXPECT_GT(contradictions, 300);
}

// The simple rules by their definition: each run's first and last start
// over every agreeing line (its leftmost and rightmost placement); boxes
// where a run covers a cell at both, spaces in a gap at both.
Truth SlideRuns(const Clue& clue, int n, uint64_t fill, uint64_t empty) {
  const size_t k = clue.size();
  std::vector<int> first(k, n), last(k, -1);
  Truth t;
  for (uint64_t line = 0; line < (1ULL << n); ++line) {
    if ((line & empty) != 0 || (line & fill) != fill || RunsOf(line, n) != clue) continue;
    t.any = true;
    size_t j = 0;
    for (int c = 0; c < n; ++c) {
      if (((line >> c) & 1) != 0 && (c == 0 || ((line >> (c - 1)) & 1) == 0)) {
        first[j] = std::min(first[j], c);
        last[j] = std::max(last[j], c);
        ++j;
      }
    }
  }
  if (!t.any) return t;
  const auto span = [](int a, int b) { return b <= a ? 0 : LowBits(b) & ~LowBits(a); };
  int gap_from = 0;
  for (size_t j = 0; j < k; ++j) {
    t.fill |= span(last[j], first[j] + clue[j]);
    t.empty |= span(gap_from, first[j]);
    gap_from = last[j] + clue[j];
  }
  t.empty |= span(gap_from, n);
  t.fill |= fill;
  t.empty |= empty;
  return t;
}

TEST(NonogramLineTest, SimpleRulesSlideEachRunToBothEnds) {
  Rng rng(29);
  int settled = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const int n = static_cast<int>(rng.Between(1, 12));
    const uint64_t source = rng.Next() & LowBits(n);
    const Clue clue = RunsOf(source, n);
    const uint64_t known = rng.Next() & rng.Next() & LowBits(n);
    const uint64_t fill = source & known, empty = ~source & known;
    const Truth want = SlideRuns(clue, n, fill, empty);
    ASSERT_TRUE(want.any);  // the source line agrees
    uint64_t sf = fill, se = empty;
    ASSERT_TRUE(SimpleLine(LineAutomaton::Build(clue, n), sf, se)) << trial;
    settled += __builtin_popcountll((sf | se) & ~known);
    EXPECT_EQ(sf, want.fill) << trial;
    EXPECT_EQ(se, want.empty) << trial;
  }
  EXPECT_GT(settled, 6000);  // the rules did settle cells
}

TEST(NonogramLineTest, SimpleRulesAreWeakerThanTheCompleteSolver) {
  // Sliding runs misses what only a case analysis of the whole line sees
  // (which run a known cell belongs to): some random lines show it.
  Rng rng(3);
  int stronger = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = 10;
    const uint64_t source = rng.Next() & LowBits(n);
    const uint64_t known = rng.Next() & rng.Next() & LowBits(n);
    const Clue clue = RunsOf(source, n);
    uint64_t af = source & known, ae = ~source & known, sf = af, se = ae;
    SolveLine(LineAutomaton::Build(clue, n), af, ae);
    SimpleLine(LineAutomaton::Build(clue, n), sf, se);
    stronger += __builtin_popcountll(af | ae) > __builtin_popcountll(sf | se);
  }
  EXPECT_GT(stronger, 0);
}

TEST(NonogramLineTest, LongLines) {
  for (const Clue& clue :
       {Clue{40}, Clue{}, Clue{2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        Clue{19, 20}}) {
    uint64_t fill = 0, empty = 0;
    ASSERT_TRUE(SolveLine(LineAutomaton::Build(clue, 40), fill, empty));
    uint64_t sf = 0, se = 0;
    ASSERT_TRUE(SimpleLine(LineAutomaton::Build(clue, 40), sf, se));
    std::vector<int8_t> cells(40, kUnknown);
    ASSERT_TRUE(PlaceLine(clue, cells));
    // Each of these clues leaves exactly one line.
    EXPECT_EQ(fill | empty, LowBits(40));
    EXPECT_EQ(sf, fill);
    EXPECT_EQ(se, empty);
    EXPECT_EQ(RunsOf(fill, 40), clue);
  }
}

}  // namespace
}  // namespace foundry::puzzles::nonogram
