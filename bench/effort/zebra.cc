// ZebraEffort: nodes of a plain backtracking solver that proves the
// solution unique (counts solutions to two, so it walks the whole pruned
// tree and the figure does not depend on where the answer lies). Items are
// placed one at a time in item order (category by category), each into a
// house its category has not used yet; a clue is checked once both of its
// items are placed, by its definition (restated in the tests' clue_meaning.h,
// which the brute-force test shares). A node is one placement tried. No
// propagation, no domains, no try-values, no ordering heuristic: written
// here, independent of the family's solver and grade (puzzles/zebra/solver.h)
// and of its verifier's MAC search; only the JSON reader (codec.h) is shared.
#include <cstdint>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/zebra/codec.h"
#include "tests/unit/families/zebra/clue_meaning.h"

namespace foundry::bench {
namespace {

using puzzles::zebra::Clue;
using puzzles::zebra::ClueType;

// Far above what default-size puzzles need; larger sizes may reach it.
constexpr int64_t kMaxNodes = 200'000'000;

struct Backtracker {
  int h = 0, n = 0;
  std::vector<std::vector<Clue>> due;  // due[i]: the clues whose later item is i
  std::vector<int> house;              // house[item], -1 while unplaced
  std::vector<uint32_t> used;          // per category, a bit per house taken
  int64_t nodes = 0;
  int solutions = 0;

  void Place(int i) {
    if (i == n) {
      ++solutions;
      return;
    }
    uint32_t& taken = used[i / h];
    for (int x = 0; x < h && solutions < 2 && nodes < kMaxNodes; ++x) {
      if (taken & (1u << x)) continue;
      ++nodes;
      house[i] = x;
      bool ok = true;
      for (const Clue& c : due[i]) {
        if (!puzzles::zebra::RestatedHolds(c, house)) {
          ok = false;
          break;
        }
      }
      if (ok) {
        taken |= 1u << x;
        Place(i + 1);
        taken &= ~(1u << x);
      }
      house[i] = -1;
    }
  }
};

Result<double> ZebraEffort(const nlohmann::json& puzzle, const nlohmann::json& /*solution*/) {
  auto p = puzzles::zebra::ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  Backtracker b;
  b.h = p->houses;
  b.n = p->houses * static_cast<int>(p->categories.size());
  b.due.resize(b.n);
  b.house.assign(b.n, -1);
  b.used.assign(p->categories.size(), 0);
  for (const Clue& c : p->clues) {
    const bool binary = c.type != ClueType::kPosition && c.type != ClueType::kNotPosition;
    b.due[binary && c.b > c.a ? c.b : c.a].push_back(c);
  }
  b.Place(0);
  return static_cast<double>(b.nodes);
}

const bool kRegistered =
    RegisterEffort({"zebra", "backtracking nodes (prove unique)", &ZebraEffort});

}  // namespace
}  // namespace foundry::bench
