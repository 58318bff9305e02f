// The decodoku grid (seed 004): an L x L grid of numbers 0..9 (0 = empty)
// and the cluster each number belongs to, with the seed's noise, its
// game-over ("spanning") test and the player's move.
//
// Cells are indexed y * L + x; grid[y][x] in JSON. Cluster ids are positive
// and 0 exactly on empty squares. They follow the seed's four rules when
// noise changes a pair of squares (neither in a cluster: a new one; one in a
// cluster: that one; the same: that one; two different: combined).
//
// Thread safety: values and pure functions (noise uses only its Rng).
#pragma once

#include <cstdint>
#include <vector>

#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {

inline constexpr int kMinSize = 3;
inline constexpr int kMaxSize = 12;

struct Move {
  int x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // the number at (x1,y1) goes to (x2,y2)
  bool operator==(const Move&) const = default;
};

struct Grid {
  int size = 8;
  std::vector<uint8_t> values;  // size * size, 0..9
  std::vector<int> clusters;    // size * size, 0 exactly where values is 0
  int next_cluster = 1;         // the id a new cluster gets

  static Grid Empty(int size);
  int At(int x, int y) const { return values[y * size + x]; }
  int ClusterAt(int x, int y) const { return clusters[y * size + x]; }
  bool Cleared() const;
  int NonZero() const;
};

// The seed's generateNoise: while the weight (in tenths) is below
// `weight_tenths`: a random square (x, then y), a random one of its existing
// 4-neighbours (in the order (x,y+1), (x,y-1), (x+1,y), (x-1,y)), a in 1..9
// added to the first and 10 - a to the second, mod 10; the pair weighs 10
// (1.0) when one of the two squares was empty (a new number appeared), else
// 1 (0.1). Clusters by the seed's four rules. Returns the pairs drawn.
int AddNoise(Rng& rng, Grid& grid, int weight_tenths);

// The seed's spanning test: some cluster id appears both in row 0 and row
// L-1, or both in column 0 and column L-1. Game over when it holds after
// the player's moves.
bool IsLost(const Grid& grid);

// True when (x1,y1) holds a number and (x2,y2) is one of its 4-neighbours.
bool IsLegalMove(const Grid& grid, const Move& move);

// The game's move: the number is added to the neighbour's (mod 10) and its
// square emptied. Clusters: the number keeps its cluster; meeting another
// cluster combines the two (the rule noise uses); a square left at 0 leaves
// its cluster. REQUIRES: IsLegalMove(grid, move).
void ApplyMove(Grid& grid, const Move& move);

// Cluster ids renumbered 1, 2, ... by first appearance in row-major order
// (the form puzzles are stored in).
void RenumberClusters(Grid& grid);

}  // namespace foundry::puzzles::decodoku
