// Tests of the alignment family: known answers, the optimised greedy against
// the seed's plain greedy (full rescoring of every trial gap), the exact
// search against brute force, and every generated puzzle re-checked here.
#include "puzzles/alignment/alignment.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/alignment/analysis.h"
#include "puzzles/alignment/best_search.h"
#include "puzzles/alignment/board.h"
#include "puzzles/alignment/codec.h"
#include "puzzles/alignment/generator.h"
#include "puzzles/alignment/greedy.h"
#include "puzzles/rng.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::alignment {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& AL() { return TheFamily(); }

// ---- the test's own model: layouts as strings, scored letter by letter ----

std::string Guide(const Board& b, int r) { return GuideString(b.guides[r]); }

int StringScore(const Board& b, const std::vector<std::string>& layout) {
  int score = 0;
  for (int r = 0; r < b.height; ++r) {
    int m = 0;
    for (const auto& col : layout) {
      if (r < static_cast<int>(col.size()) && col[r] != '-' &&
          Guide(b, r).find(col[r]) != std::string::npos) {
        ++m;
      }
    }
    score += m == b.width() ? m * b.row_bonus : m;
  }
  return score;
}

struct PlainGreedy {
  std::vector<std::string> layout;
  int score = 0;
  int64_t evaluations = 0;
};

// The seed's "before": every legal single gap at every cell position of
// every column, each scored from scratch; the best (first on ties) kept.
PlainGreedy RunPlainGreedy(const Board& b) {
  PlainGreedy g;
  g.layout = LayoutStrings(BaseLayout(b));
  g.score = StringScore(b, g.layout);
  int gaps = 0;
  while (b.max_gaps == 0 || gaps < b.max_gaps) {
    int best = g.score;
    std::vector<std::string> best_layout;
    for (size_t c = 0; c < g.layout.size(); ++c) {
      for (size_t i = 0; i < g.layout[c].size(); ++i) {
        if (static_cast<int>(g.layout[c].size()) >= b.height) continue;
        auto trial = g.layout;
        trial[c].insert(i, 1, '-');
        ++g.evaluations;
        const int s = StringScore(b, trial);
        if (s > best) {
          best = s;
          best_layout = trial;
        }
      }
    }
    if (best_layout.empty()) break;
    g.layout = best_layout;
    g.score = best;
    ++gaps;
  }
  return g;
}

// Every layout of column `c` onwards (brute force), the best score.
void BruteForce(const Board& b, size_t c, std::vector<std::string>& layout, int* best) {
  if (c == b.columns.size()) {
    const int gaps =
        std::accumulate(layout.begin(), layout.end(), 0, [](int n, const std::string& s) {
          return n + static_cast<int>(std::count(s.begin(), s.end(), '-'));
        });
    if (b.max_gaps == 0 || gaps <= b.max_gaps) *best = std::max(*best, StringScore(b, layout));
    return;
  }
  const std::string bricks = LayoutStrings(BaseLayout(b))[c];
  const int n = static_cast<int>(bricks.size());
  // Choose rows for the bricks: bitmask of `height` bits with n set bits.
  for (uint32_t mask = 0; mask < (1u << b.height); ++mask) {
    if (std::popcount(mask) != n) continue;
    std::string col;
    int k = 0;
    for (int r = 0; r < b.height && k < n; ++r) col += (mask >> r) & 1 ? bricks[k++] : '-';
    if (k < n || col.back() == '-') continue;
    layout.push_back(col);
    BruteForce(b, c + 1, layout, best);
    layout.pop_back();
  }
}

Board RandomTestBoard(Rng& rng, int max_columns, int max_height, bool limit_gaps) {
  GenerateOptions o;
  o.columns = static_cast<int>(rng.Between(2, max_columns));
  o.height = static_cast<int>(rng.Between(3, max_height));
  o.max_len = static_cast<int>(rng.Between(1, o.height));  // max_len == height: full columns
  o.min_len = static_cast<int>(rng.Between(1, o.max_len));
  o.colors = static_cast<int>(rng.Between(2, 4));
  o.row_bonus = static_cast<int>(rng.Between(1, 4));
  o.max_gaps = limit_gaps ? static_cast<int>(rng.Between(1, 4)) : 0;
  return RandomBoard(rng, o);
}

Board SmallBoard() {
  // Guides A,C,G,T; column 0 is the ancestor, column 1 lost its C.
  Board b;
  b.height = 4;
  b.row_bonus = 2;
  b.guides = {0b0001, 0b0010, 0b0100, 0b1000};
  b.columns = {{0, 1, 2, 3}, {0, 2, 3}};
  return b;
}

// ---- scoring and greedy: known answers ----

TEST(AlignmentTest, SeedScoringRuleOnAKnownBoard) {
  const Board b = SmallBoard();
  // Base: row 0 both match (2 x bonus 2 = 4), row 1 one (C), rows 2, 3 one.
  EXPECT_EQ(Score(b, BaseLayout(b)), 4 + 1 + 1 + 1);
  EXPECT_EQ(StringScore(b, {"ACGT", "AGT"}), 7);
  // The gap before G restores the ancestor's alignment: rows 0, 2, 3 full.
  EXPECT_EQ(StringScore(b, {"ACGT", "A-GT"}), 4 + 1 + 4 + 4);
  const GreedyResult g = Greedy(b);
  EXPECT_EQ(LayoutStrings(g.layout), (std::vector<std::string>{"ACGT", "A-GT"}));
  EXPECT_EQ(g.scores, (std::vector<int>{7, 13}));
  // Step 1: current + one future for column 1 (column 0 is full); step 2: the
  // current score, then both columns are full.
  EXPECT_EQ(g.evaluations, 3);
  EXPECT_EQ(RunPlainGreedy(b).evaluations, 3);  // positions 0..2 of column 1
  EXPECT_EQ(TargetScore(7, 13), 10);            // 7 + ceil(6 / 2)
  EXPECT_EQ(TargetScore(7, 14), 11);            // 7 + ceil(7 / 2)
}

TEST(AlignmentTest, OptimisedGreedyEqualsPlainGreedyOnRandomBoards) {
  Rng rng(2024);
  int limited = 0, with_full = 0;
  for (int i = 0; i < 4000; ++i) {
    const bool limit = i % 3 == 0;
    const Board b = RandomTestBoard(rng, 8, 10, limit);
    const GreedyResult g = Greedy(b);
    const PlainGreedy p = RunPlainGreedy(b);
    ASSERT_EQ(g.score(), p.score) << "board " << i;
    ASSERT_EQ(LayoutStrings(g.layout), p.layout) << "board " << i;
    ASSERT_TRUE(IsValidLayout(b, g.layout));
    ASSERT_EQ(Score(b, g.layout), g.score());
    for (size_t k = 1; k < g.scores.size(); ++k) ASSERT_GT(g.scores[k], g.scores[k - 1]);
    if (limit) {
      ASSERT_LE(g.gaps(), b.max_gaps);
    }
    limited += limit && g.gaps() == b.max_gaps;
    for (const auto& col : b.columns) with_full += static_cast<int>(col.size()) == b.height;
  }
  EXPECT_GT(limited, 100);    // the gap limit did stop the greedy
  EXPECT_GT(with_full, 100);  // full columns were there to skip
}

TEST(AlignmentTest, ExactSearchEqualsBruteForceOnSmallBoards) {
  Rng rng(7);
  int improved = 0;
  for (int i = 0; i < 300; ++i) {
    const Board b = RandomTestBoard(rng, 3, 6, i % 2 == 0);
    const GreedyResult g = Greedy(b);
    const BestResult best = BestScore(b, g);
    ASSERT_TRUE(best.exact);
    std::vector<std::string> scratch;
    int brute = 0;
    BruteForce(b, 0, scratch, &brute);
    ASSERT_EQ(best.score, brute) << "board " << i;
    ASSERT_TRUE(IsValidLayout(b, best.layout));
    ASSERT_EQ(StringScore(b, LayoutStrings(best.layout)), best.score);
    improved += best.score > g.score();
  }
  EXPECT_GT(improved, 0);  // boards where the greedy is not optimal exist
}

TEST(AlignmentTest, BeamFallbackIsValidAndNoWorseThanGreedy) {
  Rng rng(11);
  for (int i = 0; i < 100; ++i) {
    const Board b = RandomTestBoard(rng, 8, 12, i % 2 == 0);
    const GreedyResult g = Greedy(b);
    const BestResult beam = BestScore(b, g, /*node_budget=*/10, /*beam_width=*/16);
    const BestResult exact = BestScore(b, g, int64_t{1} << 40);
    ASSERT_TRUE(IsValidLayout(b, beam.layout));
    ASSERT_EQ(Score(b, beam.layout), beam.score);
    ASSERT_GE(beam.score, g.score());
    ASSERT_LE(beam.score, exact.score);
    ASSERT_TRUE(exact.exact);
  }
}

// ---- generation, verification ----

Params MakeParams(std::map<std::string, std::string> raw = {}) {
  return testing::ParamsOrFail(AL(), raw);
}

std::vector<Accepted> Sample(const Params& params, int wanted, uint64_t seed = 1) {
  return testing::FirstAccepted(AL(), params, wanted, seed, 20000);
}

// Re-checks an accepted puzzle from its JSON alone, with the test's model.
void ExpectSound(const Accepted& a) {
  auto parsed = ParsePuzzle(a.puzzle);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Board& b = parsed->board;
  std::vector<std::string> layout = a.solution["layout"];
  const int score = a.solution["score"];
  EXPECT_EQ(StringScore(b, layout), score);
  EXPECT_EQ(StringScore(b, LayoutStrings(BaseLayout(b))), a.puzzle["base_score"]);
  EXPECT_EQ(RunPlainGreedy(b).score, a.puzzle["greedy_score"]);
  const int base = a.puzzle["base_score"], greedy = a.puzzle["greedy_score"];
  EXPECT_EQ(a.puzzle["target_score"], base + (greedy - base + 1) / 2);
  EXPECT_GE(score, a.puzzle["target_score"].get<int>());
  EXPECT_EQ(score, a.puzzle["best_score"]);
  EXPECT_GE(score, greedy);
  for (size_t c = 0; c < layout.size(); ++c) {
    std::string bricks = layout[c];
    std::erase(bricks, '-');
    EXPECT_EQ(bricks, a.puzzle["columns"][c]);
    EXPECT_LE(layout[c].size(), static_cast<size_t>(b.height));
  }
  auto d = AL().Verify(a.puzzle, a.solution);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->level, a.difficulty.level);
  EXPECT_EQ(d->details, a.difficulty.details);
}

TEST(AlignmentTest, GeneratedPuzzlesAreSoundAtDefaults) {
  const auto sample = Sample(MakeParams(), 60);
  ASSERT_EQ(sample.size(), 60u);
  for (const Accepted& a : sample) ExpectSound(a);
}

TEST(AlignmentTest, GeneratedPuzzlesAreSoundWithAGapLimitAndOtherSizes) {
  for (const auto& raw : std::vector<std::map<std::string, std::string>>{
           {{"max_gaps", "3"}},
           {{"columns", "4"}, {"height", "6"}, {"min_len", "3"}, {"max_len", "6"}},
           {{"columns", "10"},
            {"height", "12"},
            {"min_len", "7"},
            {"max_len", "10"},
            {"row_bonus", "3"}}}) {
    const auto sample = Sample(MakeParams(raw), 15);
    ASSERT_EQ(sample.size(), 15u);
    for (const Accepted& a : sample) {
      ExpectSound(a);
      if (raw.count("max_gaps")) {
        EXPECT_EQ(a.puzzle["max_gaps"], 3);
        int gaps = 0;
        for (const auto& col : a.solution["layout"]) {
          const std::string s = col.get<std::string>();
          gaps += static_cast<int>(std::count(s.begin(), s.end(), '-'));
        }
        EXPECT_LE(gaps, 3);
      }
    }
  }
}

TEST(AlignmentTest, VerifyRefusesBadLayoutsAndWrongClaims) {
  const Accepted a = Sample(MakeParams(), 1).front();
  json sol = a.solution;
  sol["score"] = sol["score"].get<int>() + 1;
  auto r = AL().Verify(a.puzzle, sol);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("claims score"));

  sol = {{"layout", a.puzzle["columns"]}, {"score", a.puzzle["base_score"]}};
  r = AL().Verify(a.puzzle, sol);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("below the target"));

  sol = a.solution;
  sol["layout"][0] = sol["layout"][0].get<std::string>() + "-";
  r = AL().Verify(a.puzzle, sol);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("ends with a gap"));

  json puzzle = a.puzzle;
  puzzle["greedy_score"] = puzzle["greedy_score"].get<int>() + 1;
  r = AL().Verify(puzzle, a.solution);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("greedy_score"));
}

TEST(AlignmentTest, MalformedPuzzlesNameTheField) {
  const Accepted a = Sample(MakeParams(), 1).front();
  const auto expect_bad = [&](json puzzle, const std::string& field) {
    auto r = AL().Verify(puzzle, a.solution);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
    EXPECT_THAT(r.status().message(), HasSubstr(field));
  };
  json p = a.puzzle;
  p["height"] = 99;
  expect_bad(p, "height");
  p = a.puzzle;
  p["columns"][0] = "ACXT";
  expect_bad(p, "columns");
  p = a.puzzle;
  p["guides"][0] = "AA";
  expect_bad(p, "guides");
  p = a.puzzle;
  p["guides"].erase(0);
  expect_bad(p, "guides");
  p = a.puzzle;
  p.erase("best_score");
  expect_bad(p, "best_score");
  p = a.puzzle;
  p["extra"] = 1;
  expect_bad(p, "extra");
  auto r = AL().Verify(a.puzzle, json{{"layout", json::array()}, {"score", 0}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

TEST(AlignmentTest, CanonicalBytesIgnoreColumnOrderAndGuideLetterOrder) {
  const Accepted a = Sample(MakeParams(), 1).front();
  json p = a.puzzle;
  std::vector<std::string> columns = p["columns"];
  std::reverse(columns.begin(), columns.end());
  p["columns"] = columns;
  std::vector<std::string> guides = p["guides"];
  for (auto& g : guides) std::reverse(g.begin(), g.end());
  p["guides"] = guides;
  EXPECT_EQ(AL().CanonicalBytes(p), AL().CanonicalBytes(a.puzzle));
  // Reversed columns score the same: the puzzle still verifies with the
  // reversed layout.
  json sol = a.solution;
  std::vector<std::string> layout = sol["layout"];
  std::reverse(layout.begin(), layout.end());
  sol["layout"] = layout;
  EXPECT_TRUE(AL().Verify(p, sol).ok());
  EXPECT_THAT(AL().RenderText(a.puzzle), HasSubstr("guide"));
}

TEST(AlignmentTest, ParamsAreChecked) {
  auto bad = AL().MakeParams(std::map<std::string, std::string>{{"min_len", "7"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("min_len"));
  bad = AL().MakeParams(std::map<std::string, std::string>{{"max_len", "9"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("height"));
  bad = AL().MakeParams(std::map<std::string, std::string>{{"columns", "17"}});
  ASSERT_FALSE(bad.ok());
}

TEST(AlignmentTest, SameRngSamePuzzle) {
  const Params params = MakeParams();
  for (uint64_t i = 0; i < 50; ++i) {
    Rng r1 = CandidateRng(3, i), r2 = CandidateRng(3, i);
    Candidate a = AL().Generate(r1, params), b = AL().Generate(r2, params);
    ASSERT_EQ(a.index(), b.index());
    if (auto* x = std::get_if<Accepted>(&a)) {
      EXPECT_EQ(x->puzzle, std::get<Accepted>(b).puzzle);
      EXPECT_EQ(x->solution, std::get<Accepted>(b).solution);
    } else {
      EXPECT_EQ(std::get<Rejected>(a).reason, std::get<Rejected>(b).reason);
    }
  }
}

}  // namespace
}  // namespace foundry::puzzles::alignment
