// DecodokuEffort: states a plain A* expands to find a shortest clearing of
// the grid, with the simplest admissible bound, h = ceil(numbers / 2) (a
// move empties at most two squares: a pair that sums to 10). Written here,
// independent of the family's decoder (its IDA* with a distance bound,
// transposition table and move ordering) and of its grade. A grid made of
// pairs to clear keeps f = h along every clearing move, so the search walks
// straight down; every move that does not clear a pair raises f and makes
// the search expand a whole layer of cheaper-looking states first.
// Ties in f go to the shallower state, so each layer of equal f is searched
// breadth-first (counting how many equally promising orders there are), as
// a plain breadth-first search would, only confined to that layer.
#include <cstdint>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/decodoku/codec.h"

namespace foundry::bench {
namespace {

// Beyond this many expansions the search stops and reports the cap (far
// above what default-size grids need: thousands at most).
constexpr int64_t kMaxExpansions = 5'000'000;

int NonZero(const std::string& v) {
  int n = 0;
  for (char c : v) n += c != 0;
  return n;
}

Result<double> DecodokuEffort(const nlohmann::json& puzzle, const nlohmann::json& /*solution*/) {
  auto grid = puzzles::decodoku::ParsePuzzle(puzzle);
  if (!grid.ok()) return grid.status();
  const int n = grid->size;
  const std::string start(grid->values.begin(), grid->values.end());

  // (f, g, id): least f first, then the shallowest.
  using Entry = std::tuple<int, int, int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  std::vector<std::string> states;
  std::unordered_map<std::string, int> best_g;  // least g seen per state
  auto push = [&](const std::string& s, int g) {
    auto [it, fresh] = best_g.try_emplace(s, g);
    if (!fresh && it->second <= g) return;
    it->second = g;
    states.push_back(s);
    open.emplace(g + (NonZero(s) + 1) / 2, g, static_cast<int64_t>(states.size()) - 1);
  };
  push(start, 0);
  int64_t expanded = 0;
  constexpr int kDx[] = {0, 0, 1, -1}, kDy[] = {1, -1, 0, 0};
  while (!open.empty()) {
    const auto [f, g, id] = open.top();
    open.pop();
    const std::string s = states[id];
    if (best_g[s] < g) continue;  // a stale entry: reached cheaper since
    ++expanded;
    if (NonZero(s) == 0 || expanded >= kMaxExpansions) break;
    for (int i = 0; i < n * n; ++i) {
      if (s[i] == 0) continue;
      const int x = i % n, y = i / n;
      for (int d = 0; d < 4; ++d) {
        const int tx = x + kDx[d], ty = y + kDy[d];
        if (tx < 0 || ty < 0 || tx >= n || ty >= n) continue;
        std::string t = s;
        t[ty * n + tx] = static_cast<char>((t[ty * n + tx] + t[i]) % 10);
        t[i] = 0;
        push(t, g + 1);
      }
    }
  }
  return static_cast<double>(expanded);
}

const bool kRegistered = RegisterEffort({"decodoku", "A* states (h = numbers/2)", &DecodokuEffort});

}  // namespace
}  // namespace foundry::bench
