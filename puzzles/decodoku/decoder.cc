#include "puzzles/decodoku/decoder.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <unordered_map>

#include "puzzles/rng.h"

namespace foundry::puzzles::decodoku {
namespace {

constexpr int kDx[4] = {0, 0, 1, -1};
constexpr int kDy[4] = {1, -1, 0, 0};

// h = ceil(sum over numbers of the distance to the nearest other number / 2),
// over the values `v` of an n x n grid; 0 for an empty grid.
int Bound(const uint8_t* v, int n) {
  std::array<int, kMaxSize * kMaxSize> xs, ys;
  int count = 0;
  for (int i = 0; i < n * n; ++i) {
    if (v[i] != 0) {
      xs[count] = i % n;
      ys[count] = i / n;
      ++count;
    }
  }
  if (count == 0) return 0;
  int sum = 0;
  for (int a = 0; a < count; ++a) {
    int nearest = 4 * n;  // a lone number: only reachable if the sums are wrong
    for (int b = 0; b < count; ++b) {
      if (a != b) nearest = std::min(nearest, std::abs(xs[a] - xs[b]) + std::abs(ys[a] - ys[b]));
    }
    sum += nearest;
  }
  return (sum + 1) / 2;
}

// Zobrist keys: one random 64-bit word per (square, value), fixed forever.
const std::array<uint64_t, kMaxSize * kMaxSize * 10>& ZobristKeys() {
  static const auto kKeys = [] {
    std::array<uint64_t, kMaxSize * kMaxSize * 10> keys{};
    uint64_t x = 0x5eed0dec0d0c0ULL;
    for (auto& k : keys) k = SplitMix64(x++);
    return keys;
  }();
  return kKeys;
}

class Ida {
 public:
  Ida(const Grid& g, int64_t budget) : n_(g.size), budget_(budget), keys_(ZobristKeys()) {
    std::copy(g.values.begin(), g.values.end(), v_.begin());
    for (int i = 0; i < n_ * n_; ++i) hash_ ^= keys_[i * 10 + v_[i]];
    // No reserve for the budget: a search visits 53 grids on average, and a
    // table sized for 300,000 cost a ~2.4 MB allocation zeroed per search
    // (memset was 20% of a decodoku run's CPU in perf). It grows as needed.
  }

  // A clearing shorter than `below` moves, or false (then `nodes` says
  // whether the budget ran out: out_of_budget()).
  bool Search(int below, std::vector<Move>* out) {
    int bound = Bound(v_.data(), n_);
    while (bound < below) {
      next_bound_ = kInfinity;
      path_.clear();
      ++iteration_;
      if (Dfs(0, bound, -1, -1)) {
        *out = path_;
        return true;
      }
      if (out_of_budget_ || next_bound_ == kInfinity) return false;
      bound = next_bound_;
    }
    return false;
  }
  bool out_of_budget() const { return out_of_budget_; }
  int64_t nodes() const { return nodes_; }

 private:
  static constexpr int kInfinity = 1 << 30;

  // prev_s, prev_t: the squares of the previous move (-1 at the root).
  bool Dfs(int g, int bound, int prev_s, int prev_t, int prev_was_to_empty = 0) {
    if (++nodes_ > budget_) {
      out_of_budget_ = true;
      return false;
    }
    const int h = Bound(v_.data(), n_);
    if (h == 0) return true;
    if (g + h > bound) {
      next_bound_ = std::min(next_bound_, g + h);
      return false;
    }
    // A grid already searched in this iteration with as many moves left
    // holds no clearing within the bound (transpositions: moves on disjoint
    // squares commute, and other move orders meet in the same grid).
    auto [it, fresh] = seen_.try_emplace(hash_, Seen{iteration_, g});
    if (!fresh) {
      if (it->second.iteration == iteration_ && it->second.g <= g) return false;
      it->second = Seen{iteration_, g};
    }
    for (int s = 0; s < n_ * n_; ++s) {
      if (v_[s] == 0) continue;
      const int x = s % n_, y = s / n_;
      for (int d = 0; d < 4; ++d) {
        const int xx = x + kDx[d], yy = y + kDy[d];
        if (xx < 0 || xx >= n_ || yy < 0 || yy >= n_) continue;
        const int t = yy * n_ + xx;
        // Undoing the previous move (a number sent to an empty square and
        // sent straight back) is never shorter.
        if (prev_was_to_empty && s == prev_t && t == prev_s) continue;
        const uint8_t vs = v_[s], vt = v_[t];
        const auto nt = static_cast<uint8_t>((vt + vs) % 10);
        const uint64_t delta =
            keys_[s * 10 + vs] ^ keys_[s * 10] ^ keys_[t * 10 + vt] ^ keys_[t * 10 + nt];
        v_[t] = nt;
        v_[s] = 0;
        hash_ ^= delta;
        path_.push_back({x, y, xx, yy});
        const bool found = Dfs(g + 1, bound, s, t, vt == 0);
        if (found) return true;
        path_.pop_back();
        hash_ ^= delta;
        v_[s] = vs;
        v_[t] = vt;
        if (out_of_budget_) return false;
      }
    }
    return false;
  }

  struct Seen {
    int iteration;
    int g;
  };
  const int n_;
  const int64_t budget_;
  const std::array<uint64_t, kMaxSize * kMaxSize * 10>& keys_;
  uint64_t hash_ = 0;
  int iteration_ = 0;
  std::unordered_map<uint64_t, Seen> seen_;
  std::array<uint8_t, kMaxSize * kMaxSize> v_{};
  std::vector<Move> path_;
  int next_bound_ = kInfinity;
  int64_t nodes_ = 0;
  bool out_of_budget_ = false;
};

}  // namespace

int LowerBound(const Grid& grid) { return Bound(grid.values.data(), grid.size); }

std::vector<Move> GreedyDecode(const Grid& grid) {
  const int n = grid.size;
  std::vector<uint8_t> v = grid.values;
  std::vector<Move> moves;
  std::vector<int> cells;
  while (true) {
    cells.clear();
    for (int i = 0; i < n * n; ++i) {
      if (v[i] != 0) cells.push_back(i);
    }
    if (cells.size() < 2) break;  // 0 left (or 1: impossible when sums are 0 mod 10)
    int best_u = -1, best_w = -1, best_key = 1 << 30;
    for (size_t a = 0; a < cells.size(); ++a) {
      for (size_t b = a + 1; b < cells.size(); ++b) {
        const int u = cells[a], w = cells[b];
        const int dist = std::abs(u % n - w % n) + std::abs(u / n - w / n);
        const int key = dist * 2 + ((v[u] + v[w]) % 10 != 0);
        if (key < best_key) {
          best_key = key;
          best_u = u;
          best_w = w;
        }
      }
    }
    const int x = best_u % n, y = best_u / n, tx = best_w % n, ty = best_w / n;
    const int nx = x != tx ? x + (tx > x ? 1 : -1) : x;
    const int ny = x != tx ? y : y + (ty > y ? 1 : -1);
    const int t = ny * n + nx;
    v[t] = static_cast<uint8_t>((v[t] + v[best_u]) % 10);
    v[best_u] = 0;
    moves.push_back({x, y, nx, ny});
  }
  return moves;
}

Decoding Decode(const Grid& grid, int64_t node_budget) {
  Decoding d;
  d.moves = GreedyDecode(grid);
  d.greedy_moves = static_cast<int>(d.moves.size());
  d.lower_bound = LowerBound(grid);
  if (d.lower_bound == d.greedy_moves) {  // the greedy meets the bound
    d.exact = true;
    return d;
  }
  Ida ida(grid, node_budget);
  std::vector<Move> shorter;
  const bool found = ida.Search(d.greedy_moves, &shorter);
  d.nodes = ida.nodes();
  if (found) d.moves = std::move(shorter);
  d.exact = found || !ida.out_of_budget();
  return d;
}

}  // namespace foundry::puzzles::decodoku
