// Tests of the decodoku decoders and game loop: the exact decoder against
// breadth-first search, the greedy fallback, and the game's rounds and
// game-over rule.
#include <algorithm>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/decodoku/decoder.h"
#include "puzzles/decodoku/game.h"
#include "puzzles/decodoku/grid.h"
#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {
namespace {

// ---- decoders ----

// Breadth-first search: the true shortest clearing (small grids only).
int BfsPar(const Grid& g) {
  const int n = g.size;
  std::string start(g.values.begin(), g.values.end());
  std::unordered_map<std::string, int> dist{{start, 0}};
  std::deque<std::string> queue{start};
  while (!queue.empty()) {
    std::string s = queue.front();
    queue.pop_front();
    const int d = dist[s];
    if (std::all_of(s.begin(), s.end(), [](char c) { return c == 0; })) return d;
    for (int i = 0; i < n * n; ++i) {
      if (s[i] == 0) continue;
      for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
        const int x = i % n + dx, y = i / n + dy;
        if (x < 0 || y < 0 || x >= n || y >= n) continue;
        std::string t = s;
        t[y * n + x] = static_cast<char>((t[y * n + x] + t[i]) % 10);
        t[i] = 0;
        if (dist.try_emplace(t, d + 1).second) queue.push_back(t);
      }
    }
  }
  return -1;
}

bool Clears(Grid g, const std::vector<Move>& moves) {
  for (const Move& m : moves) {
    if (!IsLegalMove(g, m)) return false;
    ApplyMove(g, m);
  }
  return g.Cleared();
}

TEST(DecodokuTest, ExactDecoderEqualsBreadthFirstSearch) {
  Rng rng(77);
  int greedy_worse = 0, checked = 0;
  for (int i = 0; i < 400; ++i) {
    Grid g = Grid::Empty(i % 2 == 0 ? 3 : 4);
    AddNoise(rng, g, 10 * static_cast<int>(rng.Between(1, 5)));
    if (g.NonZero() > 7) continue;  // keep the BFS small
    const Decoding d = Decode(g, int64_t{1} << 40);
    ASSERT_TRUE(d.exact);
    ASSERT_TRUE(Clears(g, d.moves));
    ASSERT_EQ(d.par(), BfsPar(g)) << "grid " << i;
    ASSERT_LE(d.lower_bound, d.par());
    ASSERT_LE(d.par(), d.greedy_moves);
    greedy_worse += d.greedy_moves > d.par();
    ++checked;
  }
  EXPECT_GT(checked, 150);
  EXPECT_GT(greedy_worse, 0);
}

TEST(DecodokuTest, GreedyAlwaysClearsAndFallbackIsRecorded) {
  GameOptions o;
  for (uint64_t i = 0; i < 200; ++i) {
    Rng rng(i);
    o.size = 3 + static_cast<int>(i % 10);
    const GameResult game = PlayGame(rng, o, GreedyPolicy, 1 + static_cast<int>(i % 4));
    ASSERT_TRUE(Clears(game.grid, GreedyDecode(game.grid)));
    const Decoding tiny = Decode(game.grid, /*node_budget=*/1);
    ASSERT_TRUE(Clears(game.grid, tiny.moves));
    if (!tiny.exact) {
      EXPECT_EQ(tiny.decoder(), "greedy");
      EXPECT_EQ(tiny.par(), tiny.greedy_moves);
    }
  }
}

// ---- the game loop ----

TEST(DecodokuTest, GameLoopPlaysRoundsAndEndsWhenLost) {
  GameOptions o;
  const Policy idle = [](const Grid&) { return std::vector<Move>{}; };
  int idle_rounds = 0, greedy_rounds = 0;
  for (uint64_t i = 0; i < 100; ++i) {
    Rng r1(i), r2(i);
    const GameResult a = PlayGame(r1, o, idle, 1000);
    const GameResult b = PlayGame(r2, o, GreedyPolicy, 1000);
    EXPECT_TRUE(a.lost);  // noise above threshold: every game ends
    EXPECT_EQ(a.moves_played, 0);
    EXPECT_TRUE(IsLost(a.grid));
    EXPECT_LE(b.moves_played, 5 * (b.rounds_played - (b.lost ? 0 : 1)));
    idle_rounds += a.rounds_played;
    greedy_rounds += b.rounds_played;
  }
  EXPECT_GT(greedy_rounds, idle_rounds);  // playing well lasts longer
  // The puzzle position: `rounds` noise rounds, the player moved in between.
  Rng r(3);
  const GameResult three = PlayGame(r, o, GreedyPolicy, 3);
  if (!three.lost) {
    EXPECT_EQ(three.rounds_played, 3);
    EXPECT_EQ(three.moves_played, 10);
  }
}

TEST(DecodokuTest, GameOverOnlyAfterThePlayersMoves) {
  // Noise that spans is fixed by a player who clears everything in time.
  GameOptions o;
  o.size = 3;
  o.noise_weight = 4;
  o.moves_per_round = 1000;
  int spanned_after_noise = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    Rng r1(i), r2(i);
    const GameResult one = PlayGame(r1, o, GreedyPolicy, 1);
    spanned_after_noise += IsLost(one.grid);
    const GameResult more = PlayGame(r2, o, GreedyPolicy, 2);
    EXPECT_FALSE(more.lost);  // the player cleared the grid after round 1
  }
  EXPECT_GT(spanned_after_noise, 0);
}

}  // namespace
}  // namespace foundry::puzzles::decodoku
