// Sudoku family tests. Every generated puzzle is re-checked by dlx.h (a
// different solver from the generator's solver.h) and, on samples, for
// minimality clue by clue with dlx.h too.
#include "puzzles/sudoku/sudoku.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/rng.h"
#include "puzzles/sudoku/band_solver.h"
#include "puzzles/sudoku/codec.h"
#include "puzzles/sudoku/dlx.h"
#include "puzzles/sudoku/grader.h"
#include "puzzles/sudoku/shape.h"
#include "puzzles/sudoku/solver.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::sudoku {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& SD() { return TheFamily(); }
const Shape k9{3, 3};

Params MakeParams(const std::map<std::string, std::string>& raw = {}) {
  return testing::ParamsOrFail(SD(), raw);
}

Grid G(const std::string& s, Shape shape = k9) {
  auto g = GridFromString(shape, s);
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return g.ok() ? *g : Grid(shape.cells(), 0);
}

// The puzzle from Wikipedia's "Sudoku" article and its answer.
const char* kWikiPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const char* kWikiAnswer =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// Well-known hard 9x9 puzzles, each with a single solution.
const std::vector<std::string>& HardPuzzles() {
  static const std::vector<std::string> k = {
      // AI Escargot (Arto Inkala, 2006)
      "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
      // Easter Monster
      "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
      // Arto Inkala, 2010
      "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
      // Peter Norvig's "hardest" list
      "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
  };
  return k;
}

std::vector<Accepted> Sample(const Params& params, int wanted, uint64_t seed = 7,
                             int attempts = 5000) {
  return testing::FirstAccepted(SD(), params, wanted, seed, attempts);
}

// Minimal, checked with dlx.h alone: every clue (or 180-degree pair) removed
// in turn gives a second solution.
bool DlxMinimal(const Shape& shape, Grid g, bool symmetric) {
  const int nn = shape.cells();
  for (int a = 0; a < nn; ++a) {
    const int b = symmetric ? nn - 1 - a : a;
    if (!g[a] || b < a) continue;
    const uint8_t va = g[a], vb = g[b];
    g[a] = g[b] = 0;
    const int count = DlxCountSolutions(shape, g, 2);
    g[a] = va;
    g[b] = vb;
    if (count < 2) return false;
  }
  return true;
}

// ---- grid strings ----

TEST(SudokuGrid, DigitsThenLettersAboveNine) {
  EXPECT_EQ(DigitChar(0), '.');
  EXPECT_EQ(DigitChar(9), '9');
  EXPECT_EQ(DigitChar(10), 'A');
  EXPECT_EQ(DigitChar(16), 'G');
  const Shape s16{4, 4};
  std::string text(256, '.');
  text[0] = 'G';
  text[1] = 'A';
  text[2] = '1';
  auto g = GridFromString(s16, text);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ((*g)[0], 16);
  EXPECT_EQ((*g)[1], 10);
  EXPECT_EQ(GridToString(*g), text);
  text[3] = 'H';
  EXPECT_THAT(GridFromString(s16, text).status().message(), HasSubstr("character 4"));
  EXPECT_FALSE(GridFromString(k9, std::string(80, '.')).ok());
  EXPECT_FALSE(GridFromString(k9, "A" + std::string(80, '.')).ok());
}

// ---- the two solvers ----

TEST(SudokuSolvers, KnownAnswerFromBoth) {
  Grid a, b;
  EXPECT_EQ(CountSolutions(k9, G(kWikiPuzzle), 2, &a), 1);
  EXPECT_EQ(DlxCountSolutions(k9, G(kWikiPuzzle), 2, &b), 1);
  EXPECT_EQ(GridToString(a), kWikiAnswer);
  EXPECT_EQ(GridToString(b), kWikiAnswer);
}

TEST(SudokuSolvers, HardPuzzlesHaveOneSolutionAndBothAgree) {
  for (const std::string& p : HardPuzzles()) {
    Grid a, b;
    ASSERT_EQ(CountSolutions(k9, G(p), 2, &a), 1) << p;
    ASSERT_EQ(DlxCountSolutions(k9, G(p), 2, &b), 1) << p;
    EXPECT_EQ(a, b) << p;
    EXPECT_TRUE(IsCompleteSolution(k9, a));
    for (int i = 0; i < 81; ++i) {
      if (p[i] != '.') {
        EXPECT_EQ(DigitChar(a[i]), p[i]);
      }
    }
  }
}

TEST(SudokuSolvers, EmptyAndClashingGrids) {
  for (const Shape& s : SupportedShapes()) {
    if (s.n() > 12) continue;  // 16x16 empty grids are fine but slow for DLX's first solution
    const Grid empty(s.cells(), 0);
    EXPECT_EQ(CountSolutions(s, empty, 2), 2) << s.Name();
    EXPECT_EQ(DlxCountSolutions(s, empty, 2), 2) << s.Name();
  }
  Grid clash = G(kWikiPuzzle);
  clash[2] = 5;  // a second 5 in row 0
  EXPECT_EQ(CountSolutions(k9, clash, 2), 0);
  EXPECT_EQ(DlxCountSolutions(k9, clash, 2), 0);
}

// Random subsets of random full grids: the two solvers count the same
// (0 never happens here, 1 or 2 both do).
TEST(SudokuSolvers, DifferentialOnRandomSubsets) {
  std::map<int, int> seen;
  for (const Shape& s : SupportedShapes()) {
    if (s.n() == 16) continue;
    Rng rng(1234 + s.n());
    for (int t = 0; t < 150; ++t) {
      const Grid full = RandomSolution(s, rng);
      ASSERT_TRUE(IsCompleteSolution(s, full)) << s.Name();
      Grid g = full;
      const double keep = 0.2 + 0.4 * static_cast<double>(rng.Below(1000)) / 1000.0;
      for (auto& v : g) {
        if (!rng.Chance(keep)) v = 0;
      }
      const int a = CountSolutions(s, g, 2), b = DlxCountSolutions(s, g, 2);
      ASSERT_EQ(a, b) << s.Name() << " " << GridToString(g);
      ++seen[a];
    }
  }
  EXPECT_GT(seen[1], 10);
  EXPECT_GT(seen[2], 10);
}

// ---- the grader ----

TEST(SudokuGrader, WikipediaPuzzleIsEasyEasterMonsterNeedsSearch) {
  const Grade easy = GradePuzzle(k9, G(kWikiPuzzle));
  EXPECT_EQ(easy.level, 0);
  EXPECT_EQ(easy.clues, 30);
  EXPECT_FALSE(easy.contradiction);
  const Grade monster = GradePuzzle(k9, G(HardPuzzles()[1]));
  EXPECT_EQ(monster.level, 3);
  EXPECT_GT(monster.unsolved_when_stuck, 0);
  const Difficulty d = monster.ToDifficulty();
  EXPECT_EQ(d.level, "expert");
  EXPECT_EQ(d.details["hardest"], "search");
}

// A puzzle whose grade is medium: it needs a locked candidate or a pair.
TEST(SudokuGrader, LevelsFollowTheTable) {
  EXPECT_EQ(TechniqueLevel(Technique::kHiddenSingle), 0);
  EXPECT_EQ(TechniqueLevel(Technique::kLockedCandidates), 1);
  EXPECT_EQ(TechniqueLevel(Technique::kHiddenPair), 1);
  EXPECT_EQ(TechniqueLevel(Technique::kXWing), 2);
  EXPECT_EQ(TechniqueName(Technique::kXYWing), "xy_wing");
  // Across generated puzzles, the grade equals the hardest technique used.
  for (const Accepted& a : Sample(MakeParams(), 30)) {
    auto p = ParsePuzzle(a.puzzle);
    ASSERT_TRUE(p.ok());
    const Grade g = GradePuzzle(p->shape, p->grid);
    int hardest = 0;
    for (int t = 0; t < kTechniqueCount; ++t) {
      if (g.uses[t]) hardest = std::max(hardest, TechniqueLevel(static_cast<Technique>(t)));
    }
    EXPECT_EQ(g.level == 3 ? 3 : hardest, g.level);
    // Logic never places a wrong digit: every filled cell agrees with the answer.
    auto sol = ParseSolution(p->shape, a.solution);
    EXPECT_FALSE(g.contradiction);
    int filled = 0;
    for (size_t i = 0; i < g.filled.size(); ++i) {
      if (!g.filled[i]) continue;
      ++filled;
      EXPECT_EQ(g.filled[i], (*sol)[i]) << i;
    }
    EXPECT_EQ(filled == 81, g.level < 3);
  }
}

// A capped grade (max_level below the puzzle's level) says "at least
// max_level + 1" and nothing wrong; at or above the level it is the full grade.
TEST(SudokuGrader, CappedGradeIsALowerBound) {
  int capped = 0;
  for (const Accepted& a : Sample(MakeParams(), 60, 21)) {
    const Grid grid = ParsePuzzle(a.puzzle)->grid;
    const Grade full = GradePuzzle(k9, grid);
    ASSERT_FALSE(full.capped);
    for (int max_level = 0; max_level <= 3; ++max_level) {
      const Grade g = GradePuzzle(k9, grid, max_level);
      if (max_level < full.level) {
        ++capped;
        EXPECT_TRUE(g.capped);
        EXPECT_EQ(g.level, max_level + 1);
      } else {
        EXPECT_FALSE(g.capped);
        EXPECT_EQ(g.level, full.level);
        EXPECT_EQ(g.uses, full.uses);
        EXPECT_EQ(g.filled, full.filled);
      }
    }
  }
  EXPECT_GT(capped, 40);
}

// ---- generation ----

TEST(SudokuGenerate, EveryShapeUniqueByDlxAndMinimal) {
  for (const Shape& s : SupportedShapes()) {
    const int wanted = s.n() == 16 ? 2 : 6;
    const auto sample = Sample(MakeParams({{"box", s.Name()}}), wanted, 11);
    ASSERT_EQ(static_cast<int>(sample.size()), wanted) << s.Name();
    for (const Accepted& a : sample) {
      auto p = ParsePuzzle(a.puzzle);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      auto sol = ParseSolution(p->shape, a.solution);
      ASSERT_TRUE(sol.ok());
      Grid dlx_solution;
      ASSERT_EQ(DlxCountSolutions(s, p->grid, 2, &dlx_solution), 1) << a.puzzle.dump();
      EXPECT_EQ(dlx_solution, *sol);
      if (s.n() <= 9) {
        EXPECT_TRUE(DlxMinimal(s, p->grid, false)) << a.puzzle.dump();
      }
      EXPECT_TRUE(IsMinimal(s, p->grid, false));
      auto v = SD().Verify(a.puzzle, a.solution);
      ASSERT_TRUE(v.ok()) << v.status().ToString();
      EXPECT_EQ(v->level, a.difficulty.level);
    }
  }
}

TEST(SudokuGenerate, Minimal9x9SampleHasTypicalClueCounts) {
  int total = 0, lo = 81, hi = 0;
  const auto sample = Sample(MakeParams(), 40, 3);
  for (const Accepted& a : sample) {
    auto p = ParsePuzzle(a.puzzle);
    const int k = CountClues(p->grid);
    total += k;
    lo = std::min(lo, k);
    hi = std::max(hi, k);
    EXPECT_TRUE(DlxMinimal(k9, p->grid, false));
  }
  // Minimal 9x9 puzzles have 17 clues at the very least and rarely above 30.
  EXPECT_GE(lo, 17);
  EXPECT_LE(hi, 35);
  EXPECT_GT(total / 40.0, 20);
  EXPECT_LT(total / 40.0, 28);
}

TEST(SudokuGenerate, SymmetricPuzzlesAreSymmetricAndPairMinimal) {
  for (const Accepted& a : Sample(MakeParams({{"symmetric", "true"}}), 10, 5)) {
    auto p = ParsePuzzle(a.puzzle);
    ASSERT_TRUE(p.ok());
    for (int i = 0; i < 81; ++i) EXPECT_EQ(p->grid[i] != 0, p->grid[80 - i] != 0) << i;
    EXPECT_EQ(DlxCountSolutions(k9, p->grid, 2), 1);
    EXPECT_TRUE(DlxMinimal(k9, p->grid, true));
  }
}

TEST(SudokuGenerate, NonMinimalKeepsMoreClues) {
  double minimal = 0, loose = 0;
  const auto a = Sample(MakeParams(), 20, 9);
  const auto b = Sample(MakeParams({{"minimal", "false"}}), 20, 9);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    auto pa = ParsePuzzle(a[i].puzzle);
    auto pb = ParsePuzzle(b[i].puzzle);
    EXPECT_EQ(DlxCountSolutions(k9, pb->grid, 2), 1);
    minimal += CountClues(pa->grid);
    loose += CountClues(pb->grid);
  }
  EXPECT_GT(loose, minimal);
}

TEST(SudokuGenerate, SameRngSamePuzzle) {
  // Aimed at a level too: the candidate is a function of (rng, params).
  for (const Params& params : {MakeParams(), MakeParams({{"level", "hard"}})}) {
    for (uint64_t i = 0; i < 12; ++i) {
      Rng a = CandidateRng(42, i), b = CandidateRng(42, i);
      const Candidate ca = SD().Generate(a, params), cb = SD().Generate(b, params);
      ASSERT_EQ(ca.index(), cb.index());
      if (const auto* x = std::get_if<Accepted>(&ca)) {
        const auto& y = std::get<Accepted>(cb);
        EXPECT_EQ(x->puzzle, y.puzzle);
        EXPECT_EQ(x->solution, y.solution);
      }
    }
  }
}

// ---- the family contract ----

TEST(SudokuFamily, ParamsAndErrors) {
  EXPECT_EQ(SD().name(), "sudoku");
  EXPECT_EQ(SD().id_prefix(), "sd");
  const Params d = MakeParams();
  EXPECT_EQ(d.Choice("box"), "3x3");
  EXPECT_TRUE(d.Bool("minimal"));
  EXPECT_FALSE(d.Bool("symmetric"));
  EXPECT_TRUE(d.goal().Any());
  auto bad = SD().MakeParams(std::map<std::string, std::string>{{"box", "5x5"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("box"));
  EXPECT_FALSE(SD().MakeParams(std::map<std::string, std::string>{{"level", "insane"}}).ok());
}

TEST(SudokuFamily, VerifyKnownAnswerAndRefusals) {
  const json puzzle = {{"box", {3, 3}}, {"grid", kWikiPuzzle}};
  auto d = SD().Verify(puzzle, {{"grid", kWikiAnswer}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->level, "easy");
  // A wrong answer (two cells swapped in row 0).
  std::string wrong = kWikiAnswer;
  std::swap(wrong[2], wrong[3]);
  EXPECT_EQ(SD().Verify(puzzle, {{"grid", wrong}}).status().code(),
            Status::Code::kFailedPrecondition);
  // A puzzle with a second solution: drop clues until dlx.h finds two.
  std::string loose = kWikiPuzzle;
  for (char& ch : loose) {
    if (ch != '.') {
      ch = '.';
      if (DlxCountSolutions(k9, G(loose), 2) == 2) break;
    }
  }
  auto r = SD().Verify({{"box", {3, 3}}, {"grid", loose}}, {{"grid", kWikiAnswer}});
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("more than one"));
  // Malformed shapes.
  for (const json& bad :
       {json{{"box", {5, 5}}, {"grid", kWikiPuzzle}}, json{{"box", {3, 3}}, {"grid", "123"}},
        json{{"box", {3, 3}}, {"grid", kWikiPuzzle}, {"extra", 1}}}) {
    EXPECT_EQ(SD().Verify(bad, {{"grid", kWikiAnswer}}).status().code(),
              Status::Code::kInvalidArgument);
  }
  EXPECT_EQ(
      SD().Verify(puzzle, {{"grid", std::string(kWikiAnswer).replace(0, 1, ".")}}).status().code(),
      Status::Code::kInvalidArgument);
}

TEST(SudokuFamily, CanonicalBytesIgnoreDigitNames) {
  // Rename every digit d to 10 - d: the same puzzle up to relabelling.
  std::string renamed = kWikiPuzzle;
  for (char& ch : renamed) {
    if (ch != '.') ch = static_cast<char>('0' + (10 - (ch - '0')));
  }
  const json a = {{"box", {3, 3}}, {"grid", kWikiPuzzle}};
  const json b = {{"box", {3, 3}}, {"grid", renamed}};
  EXPECT_EQ(SD().CanonicalBytes(a), SD().CanonicalBytes(b));
  EXPECT_EQ(SD().CanonicalBytes(a).substr(0, 13), "sudoku|3x3|12");
  std::string moved = kWikiPuzzle;
  std::swap(moved[0], moved[2]);
  EXPECT_NE(SD().CanonicalBytes(a), SD().CanonicalBytes({{"box", {3, 3}}, {"grid", moved}}));
}

TEST(SudokuFamily, RenderTextShowsTheGridWithBoxes) {
  const std::string text = SD().RenderText({{"box", {3, 3}}, {"grid", kWikiPuzzle}});
  EXPECT_THAT(text, HasSubstr("30 clues"));
  EXPECT_THAT(text, HasSubstr("5 3 . | . 7 . | . . ."));
  EXPECT_THAT(text, HasSubstr("------+-------+------"));
  const std::string small = SD().RenderText({{"box", {2, 3}}, {"grid", std::string(36, '.')}});
  EXPECT_THAT(small, HasSubstr(". . . | . . ."));
}

// Generated puzzles are distinct modulo relabelling on a sample (dedup keys
// are not trivially equal).
TEST(SudokuFamily, SampleCanonicalKeysDistinct) {
  std::set<std::string> keys;
  const auto sample = Sample(MakeParams(), 50, 77);
  for (const Accepted& a : sample) keys.insert(SD().CanonicalBytes(a.puzzle));
  EXPECT_EQ(keys.size(), sample.size());
}

}  // namespace
}  // namespace foundry::puzzles::sudoku
