// Tests of the decodoku family: the seed's noise, cluster rules and
// spanning test against an implementation written here, moves, and every
// generated puzzle re-checked here (decoders and game loop:
// decoder_game_test.cc).
#include "puzzles/decodoku/decodoku.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/decodoku/codec.h"
#include "puzzles/decodoku/grid.h"
#include "puzzles/rng.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles::decodoku {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Family& DK() { return TheFamily(); }

// ---- the seed's generateNoise, written again from the blog post ----
// anyons[x][y] and clusters[x][y] as in the seed; the weight in tenths.
struct SeedGame {
  int L;
  std::vector<std::vector<int>> anyons, clusters;
  int next = 1;
  explicit SeedGame(int l)
      : L(l), anyons(l, std::vector<int>(l)), clusters(l, std::vector<int>(l)) {}

  void GenerateNoise(Rng& rng, int tenths) {
    int weight = 0;
    while (weight < tenths) {
      const int x = static_cast<int>(rng.Below(L)), y = static_cast<int>(rng.Below(L));
      std::vector<std::pair<int, int>> nb;
      for (auto [xx, yy] : {std::pair{x, y + 1}, {x, y - 1}, {x + 1, y}, {x - 1, y}}) {
        if (xx >= 0 && yy >= 0 && xx < L && yy < L) nb.push_back({xx, yy});
      }
      const auto [x2, y2] = nb[rng.Below(nb.size())];
      const int a = static_cast<int>(rng.Between(1, 9)), aa = 10 - a;
      const bool created = anyons[x][y] == 0 || anyons[x2][y2] == 0;
      const int c1 = clusters[x][y], c2 = clusters[x2][y2];
      anyons[x][y] = (a + anyons[x][y]) % 10;
      anyons[x2][y2] = (aa + anyons[x2][y2]) % 10;
      int c = 0;
      if (c1 == 0 && c2 == 0)
        c = next++;  // rule 1: a brand new cluster
      else if (c1 == 0 || c2 == 0)
        c = c1 + c2;  // rule 2: the one cluster
      else if (c1 == c2)
        c = c1;  // rule 3: the same cluster
      else {     // rule 4: combined
        c = c1;
        for (auto& col : clusters)
          for (int& k : col) k = k == c2 ? c1 : k;
      }
      clusters[x][y] = anyons[x][y] ? c : 0;
      clusters[x2][y2] = anyons[x2][y2] ? c : 0;
      weight += created ? 10 : 1;
    }
  }
  // The seed's spanning test, verbatim.
  bool Spanning() const {
    int spanners = 0;
    for (int J = 0; J < L; J++) {
      for (int K = 0; K < L; K++) {
        spanners += (clusters[J][0] == clusters[K][L - 1]) * clusters[J][0];
        spanners += (clusters[0][J] == clusters[L - 1][K]) * clusters[0][J];
      }
    }
    return spanners != 0;
  }
};

TEST(DecodokuTest, NoiseAndClustersMatchTheSeed) {
  int lost = 0;
  for (uint64_t i = 0; i < 3000; ++i) {
    const int size = 3 + static_cast<int>(i % 10);
    const int tenths = 10 * (1 + static_cast<int>(i % 12));
    Rng r1(i), r2(i);
    Grid g = Grid::Empty(size);
    SeedGame seed(size);
    for (int round = 0; round < 3; ++round) {
      AddNoise(r1, g, tenths);
      seed.GenerateNoise(r2, tenths);
      for (int x = 0; x < size; ++x) {
        for (int y = 0; y < size; ++y) {
          ASSERT_EQ(g.At(x, y), seed.anyons[x][y]);
          ASSERT_EQ(g.ClusterAt(x, y), seed.clusters[x][y]);
        }
      }
      ASSERT_EQ(IsLost(g), seed.Spanning());
      lost += seed.Spanning();
      // Every cluster sums to 0 mod 10: each noise pair adds a + (10 - a).
      std::map<int, int> sums;
      for (int k = 0; k < size * size; ++k) sums[g.clusters[k]] += g.values[k];
      for (auto [id, sum] : sums) ASSERT_EQ(sum % 10, 0) << id;
    }
    ASSERT_EQ(r1.Next(), r2.Next());  // the same number of draws
  }
  EXPECT_GT(lost, 100);
}

TEST(DecodokuTest, NoiseWeightsAsTheSeed) {
  // A new number weighs 1, a change of existing numbers 0.1: weight 6 needs
  // at least 6 pairs; on a 3x3 grid the numbers soon collide.
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    Grid g = Grid::Empty(3);
    const int pairs = AddNoise(rng, g, 60);
    EXPECT_GE(pairs, 6);
  }
  Grid g = Grid::Empty(8);
  Rng one(1);
  EXPECT_EQ(AddNoise(one, g, 1), 1);  // any pair reaches 0.1
}

Grid FromRows(const std::vector<std::string>& digits, const std::vector<std::string>& ids) {
  Grid g = Grid::Empty(static_cast<int>(digits.size()));
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      g.values[y * g.size + x] = static_cast<uint8_t>(digits[y][x] == '.' ? 0 : digits[y][x] - '0');
      g.clusters[y * g.size + x] = ids[y][x] == '.' ? 0 : ids[y][x] - 'a' + 1;
    }
  }
  g.next_cluster = 10;
  return g;
}

TEST(DecodokuTest, SpanningTestKnownAnswers) {
  // A cluster from the top row to the bottom row: lost.
  EXPECT_TRUE(IsLost(FromRows({"1..", "8..", "1.."}, {"a..", "a..", "a.."})));
  // Left and right columns, even when the cluster's squares are not connected.
  EXPECT_TRUE(IsLost(FromRows({"...", "5.5", "..."}, {"...", "a.a", "..."})));
  // Top and left edges only: not lost.
  EXPECT_FALSE(IsLost(FromRows({"37.", "...", "..."}, {"aa.", "...", "..."})));
  // Two different clusters touching opposite edges: not lost.
  EXPECT_FALSE(IsLost(FromRows({"55.", "...", ".55"}, {"aa.", "...", ".bb"})));
}

TEST(DecodokuTest, MovesAddModTenAndCombineClusters) {
  Grid g = FromRows({"37.", "..4", "..6"}, {"aa.", "..b", "..b"});
  ASSERT_TRUE(IsLegalMove(g, {0, 0, 1, 0}));
  EXPECT_FALSE(IsLegalMove(g, {0, 1, 1, 1}));  // empty source
  EXPECT_FALSE(IsLegalMove(g, {0, 0, 1, 1}));  // not a neighbour
  EXPECT_FALSE(IsLegalMove(g, {2, 2, 3, 2}));  // off the grid
  ApplyMove(g, {0, 0, 1, 0});
  EXPECT_EQ(g.At(1, 0), 0);  // 3 + 7 = 10: gone
  EXPECT_EQ(g.At(0, 0), 0);
  EXPECT_EQ(g.ClusterAt(1, 0), 0);
  ApplyMove(g, {2, 1, 1, 1});  // to an empty square: keeps its cluster
  EXPECT_EQ(g.At(1, 1), 4);
  EXPECT_EQ(g.ClusterAt(1, 1), 2);
  ApplyMove(g, {1, 1, 1, 2});  // 4 + empty
  ApplyMove(g, {1, 2, 2, 2});  // 4 + 6 = 0
  EXPECT_TRUE(g.Cleared());
}

// ---- generation, verification ----

Params MakeParams(std::map<std::string, std::string> raw = {}) {
  return testing::ParamsOrFail(DK(), raw);
}

std::vector<Accepted> Sample(const Params& params, int wanted, uint64_t seed = 1) {
  return testing::FirstAccepted(DK(), params, wanted, seed, 5000);
}

void ExpectSound(const Accepted& a) {
  const int n = a.puzzle["size"];
  std::vector<std::vector<int>> v = a.puzzle["grid"], c = a.puzzle["clusters"];
  std::map<int, int> sums;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      EXPECT_EQ(v[y][x] == 0, c[y][x] == 0);
      sums[c[y][x]] += v[y][x];
    }
  }
  for (auto [id, sum] : sums) EXPECT_EQ(sum % 10, 0) << "cluster " << id;
  // Replay the moves on the test's own copy.
  for (const auto& m : a.solution["moves"]) {
    const int x1 = m[0], y1 = m[1], x2 = m[2], y2 = m[3];
    ASSERT_EQ(std::abs(x1 - x2) + std::abs(y1 - y2), 1);
    ASSERT_NE(v[y1][x1], 0);
    v[y2][x2] = (v[y2][x2] + v[y1][x1]) % 10;
    v[y1][x1] = 0;
  }
  for (const auto& row : v) {
    for (int x : row) EXPECT_EQ(x, 0);
  }
  EXPECT_EQ(a.solution["par"], a.solution["moves"].size());
  EXPECT_EQ(a.difficulty.details["par"], a.solution["par"]);
  auto d = DK().Verify(a.puzzle, a.solution);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->level, a.difficulty.level);
  EXPECT_EQ(d->details, a.difficulty.details);
}

TEST(DecodokuTest, GeneratedPuzzlesAreSound) {
  for (const auto& raw : std::vector<std::map<std::string, std::string>>{
           {}, {{"size", "5"}}, {{"size", "12"}, {"noise_weight", "10"}}, {{"rounds", "3"}}}) {
    const auto sample = Sample(MakeParams(raw), 25);
    ASSERT_EQ(sample.size(), 25u);
    for (const Accepted& a : sample) ExpectSound(a);
  }
}

TEST(DecodokuTest, ParRangeFilters) {
  const auto sample =
      Sample(MakeParams({{"min_moves", "7"}, {"max_moves", "9"}, {"rounds", "2"}}), 10);
  ASSERT_FALSE(sample.empty());
  for (const Accepted& a : sample) {
    EXPECT_GE(a.solution["par"].get<int>(), 7);
    EXPECT_LE(a.solution["par"].get<int>(), 9);
  }
  EXPECT_FALSE(DK().MakeParams(std::map<std::string, std::string>{{"min_moves", "40"}}).ok());
}

json Transform(const json& square, int sym) {
  const int n = static_cast<int>(square.size());
  json out = square;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      int sx = sym & 4 ? y : x, sy = sym & 4 ? x : y;
      if (sym & 1) sx = n - 1 - sx;
      if (sym & 2) sy = n - 1 - sy;
      out[y][x] = square[sy][sx];
    }
  }
  return out;
}

TEST(DecodokuTest, CanonicalBytesAreTheLeastOfEightSymmetries) {
  for (const Accepted& a : Sample(MakeParams(), 10)) {
    const std::string bytes = DK().CanonicalBytes(a.puzzle);
    std::set<std::string> images;
    for (int sym = 0; sym < 8; ++sym) {
      json p = a.puzzle;
      p["grid"] = Transform(a.puzzle["grid"], sym);
      p["clusters"] = Transform(a.puzzle["clusters"], sym);
      EXPECT_EQ(DK().CanonicalBytes(p), bytes);
      images.insert(p["grid"].dump());
    }
    EXPECT_GT(images.size(), 1u);
    // Relabelled cluster ids are the same puzzle too.
    json p = a.puzzle;
    for (auto& row : p["clusters"]) {
      for (auto& id : row) id = id.get<int>() == 0 ? 0 : id.get<int>() + 5;
    }
    EXPECT_EQ(DK().CanonicalBytes(p), bytes);
  }
}

// Puzzle ids hash these bytes: their layout must never change (a faster
// CanonicalBytes must give the same string; this one was computed from the
// definition in codec.h by a separate script, and the map-based code before
// 2026-11-25 gave it too).
TEST(DecodokuTest, CanonicalBytesKeepTheirLayout) {
  const json puzzle = {{"size", 3},
                       {"grid", {{1, 0, 9}, {0, 5, 5}, {2, 8, 0}}},
                       {"clusters", {{4, 0, 4}, {0, 7, 7}, {3, 3, 0}}}};
  EXPECT_EQ(DK().CanonicalBytes(puzzle), "3|059850201|0,1,2,3,1,0,3,0,2");
}

TEST(DecodokuTest, VerifyRefusesWrongSolutionsAndBadPuzzles) {
  const Accepted a = Sample(MakeParams(), 1).front();
  json sol = a.solution;
  sol["moves"].erase(sol["moves"].size() - 1);
  sol["par"] = sol["moves"].size();
  auto r = DK().Verify(a.puzzle, sol);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("not cleared"));

  sol = a.solution;
  sol["par"] = sol["par"].get<int>() + 1;
  r = DK().Verify(a.puzzle, sol);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("claims par"));

  json p = a.puzzle;  // a number changed: its cluster no longer sums to 0
  for (auto& row : p["grid"]) {
    for (auto& v : row) {
      if (v != 0 && p == a.puzzle) v = v.get<int>() % 9 + 1;
    }
  }
  r = DK().Verify(p, a.solution);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("0 mod 10"));

  const auto expect_bad = [&](json puzzle, const std::string& field) {
    auto res = DK().Verify(puzzle, a.solution);
    ASSERT_FALSE(res.ok());
    EXPECT_EQ(res.status().code(), Status::Code::kInvalidArgument);
    EXPECT_THAT(res.status().message(), HasSubstr(field));
  };
  p = a.puzzle;
  p["size"] = 2;
  expect_bad(p, "size");
  p = a.puzzle;
  p["grid"][0][0] = 10;
  expect_bad(p, "grid");
  p = a.puzzle;
  p["grid"][1].erase(0);
  expect_bad(p, "grid");
  p = a.puzzle;
  p["clusters"][0][0] = p["grid"][0][0] == 0 ? 1 : 0;
  expect_bad(p, "clusters");
  p = a.puzzle;
  p["noise"] = 1;
  expect_bad(p, "noise");
  r = DK().Verify(a.puzzle, json{{"moves", {{1, 2, 3}}}, {"par", 1}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

TEST(DecodokuTest, SameRngSamePuzzleAndText) {
  const Params params = MakeParams({{"rounds", "2"}});
  for (uint64_t i = 0; i < 20; ++i) {
    Rng r1 = CandidateRng(4, i), r2 = CandidateRng(4, i);
    Candidate a = DK().Generate(r1, params), b = DK().Generate(r2, params);
    ASSERT_EQ(a.index(), b.index());
    if (auto* x = std::get_if<Accepted>(&a)) {
      EXPECT_EQ(x->puzzle, std::get<Accepted>(b).puzzle);
      EXPECT_EQ(x->solution, std::get<Accepted>(b).solution);
      EXPECT_THAT(DK().RenderText(x->puzzle), HasSubstr("Clear the 8x8 grid"));
    }
  }
}

}  // namespace
}  // namespace foundry::puzzles::decodoku
