#include "puzzles/decodoku/grid.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace foundry::puzzles::decodoku {
namespace {

// Relabels every square of cluster `from` as `to`.
void Combine(Grid& g, int from, int to) {
  if (from == to) return;
  std::replace(g.clusters.begin(), g.clusters.end(), from, to);
}

}  // namespace

Grid Grid::Empty(int size) {
  Grid g;
  g.size = size;
  g.values.assign(static_cast<size_t>(size) * size, 0);
  g.clusters.assign(g.values.size(), 0);
  return g;
}

bool Grid::Cleared() const {
  return std::all_of(values.begin(), values.end(), [](uint8_t v) { return v == 0; });
}

int Grid::NonZero() const {
  return static_cast<int>(
      std::count_if(values.begin(), values.end(), [](uint8_t v) { return v != 0; }));
}

int AddNoise(Rng& rng, Grid& g, int weight_tenths) {
  const int n = g.size;
  int weight = 0, pairs = 0;
  while (weight < weight_tenths) {
    const int x = static_cast<int>(rng.Below(n));
    const int y = static_cast<int>(rng.Below(n));
    int nx[4], ny[4], count = 0;
    const int dx[4] = {0, 0, 1, -1}, dy[4] = {1, -1, 0, 0};
    for (int d = 0; d < 4; ++d) {
      const int xx = x + dx[d], yy = y + dy[d];
      if (xx >= 0 && xx < n && yy >= 0 && yy < n) {
        nx[count] = xx;
        ny[count] = yy;
        ++count;
      }
    }
    const int pick = static_cast<int>(rng.Below(count));
    const int a = static_cast<int>(rng.Between(1, 9));
    const int p = y * n + x, q = ny[pick] * n + nx[pick];

    const bool p_empty = g.values[p] == 0, q_empty = g.values[q] == 0;
    const int cp = g.clusters[p], cq = g.clusters[q];
    g.values[p] = static_cast<uint8_t>((g.values[p] + a) % 10);
    g.values[q] = static_cast<uint8_t>((g.values[q] + 10 - a) % 10);
    int id = 0;
    if (cp == 0 && cq == 0) {
      id = g.next_cluster++;  // neither in a cluster: a brand new one
    } else if (cp == 0) {
      id = cq;  // only one in a cluster: that one
    } else {
      id = cp;  // the same cluster, or two combined into cp
      if (cq != 0) Combine(g, cq, cp);
    }
    g.clusters[p] = g.values[p] != 0 ? id : 0;
    g.clusters[q] = g.values[q] != 0 ? id : 0;
    weight += p_empty || q_empty ? 10 : 1;
    ++pairs;
  }
  return pairs;
}

bool IsLost(const Grid& g) {
  const int n = g.size;
  // The seed's loop, with clusters[x][y]: clusters[J][0] vs clusters[K][L-1]
  // (top and bottom rows) and clusters[0][J] vs clusters[L-1][K] (left and
  // right columns); ids are positive, so any equal nonzero pair spans.
  for (int j = 0; j < n; ++j) {
    for (int k = 0; k < n; ++k) {
      const int top = g.ClusterAt(j, 0), left = g.ClusterAt(0, j);
      if (top != 0 && top == g.ClusterAt(k, n - 1)) return true;
      if (left != 0 && left == g.ClusterAt(n - 1, k)) return true;
    }
  }
  return false;
}

bool IsLegalMove(const Grid& g, const Move& m) {
  const int n = g.size;
  const auto inside = [n](int x, int y) { return x >= 0 && x < n && y >= 0 && y < n; };
  if (!inside(m.x1, m.y1) || !inside(m.x2, m.y2)) return false;
  if (std::abs(m.x1 - m.x2) + std::abs(m.y1 - m.y2) != 1) return false;
  return g.At(m.x1, m.y1) != 0;
}

void ApplyMove(Grid& g, const Move& m) {
  const int s = m.y1 * g.size + m.x1, t = m.y2 * g.size + m.x2;
  const int cs = g.clusters[s], ct = g.clusters[t];
  g.values[t] = static_cast<uint8_t>((g.values[t] + g.values[s]) % 10);
  g.values[s] = 0;
  g.clusters[s] = 0;
  if (ct != 0) Combine(g, cs, ct);
  g.clusters[t] = g.values[t] != 0 ? (ct != 0 ? ct : cs) : 0;
}

void RenumberClusters(Grid& g) {
  std::map<int, int> ids;
  for (int& c : g.clusters) {
    if (c == 0) continue;
    auto [it, fresh] = ids.try_emplace(c, static_cast<int>(ids.size()) + 1);
    c = it->second;
  }
  g.next_cluster = static_cast<int>(ids.size()) + 1;
}

}  // namespace foundry::puzzles::decodoku
