#include "puzzles/balance/count_solver.h"

#include <algorithm>
#include <cassert>
#include <vector>

namespace foundry::puzzles::balance {
namespace {

int64_t Pow3(int k) {
  int64_t p = 1;
  while (k-- > 0) p *= 3;
  return p;
}

CountState Capped(CountState s) {
  s.genuine = std::min(s.genuine, s.unknown + s.heavy + s.light);
  return s;
}

uint64_t Key(const CountState& s, int k) {
  return (uint64_t(s.unknown) << 40) | (uint64_t(s.heavy) << 28) | (uint64_t(s.light) << 16) |
         (uint64_t(s.genuine) << 4) | uint64_t(k);
}

}  // namespace

CountState After(const CountState& s, const CountWeighing& w, Outcome o) {
  const int total = s.unknown + s.heavy + s.light + s.genuine;
  CountState n;
  switch (o) {
    case Outcome::kBalanced:
      n.unknown = s.unknown - w.unknown_left - w.unknown_right;
      n.heavy = s.heavy - w.heavy_left - w.heavy_right;
      n.light = s.light - w.light_left - w.light_right;
      break;
    case Outcome::kLeftHeavy:  // heavy on the left or light on the right
      n.heavy = w.unknown_left + w.heavy_left;
      n.light = w.unknown_right + w.light_right;
      break;
    case Outcome::kRightHeavy:
      n.heavy = w.unknown_right + w.heavy_right;
      n.light = w.unknown_left + w.light_left;
      break;
  }
  n.genuine = total - n.unknown - n.heavy - n.light;
  return n;
}

CountState StartState(Variant v, int coins) {
  CountState s;
  switch (v) {
    case Variant::kUnknown:
      s.unknown = coins;
      break;
    case Variant::kHeavier:
      s.heavy = coins;
      break;
    case Variant::kReference:
      s.unknown = coins;
      s.genuine = 1;
      break;
  }
  return s;
}

bool CountSolver::Solvable(const CountState& s, int k) {
  return s.possibilities() <= 1 || Solve(s, k).has_value();
}

std::optional<CountWeighing> CountSolver::Solve(const CountState& state, int k) {
  assert(k <= kMaxStrategyWeighings);
  const CountState s = Capped(state);
  const int64_t p = s.possibilities();
  if (p <= 1 || k <= 0 || p > Pow3(k)) return std::nullopt;
  const uint64_t key = Key(s, k);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;

  const int64_t cap = Pow3(k - 1);
  std::optional<CountWeighing> found;
  CountWeighing w;
  // Every split of each group over (left, right, off), genuine filling the
  // lighter-loaded left pan; outcomes above 3^(k-1) pruned before recursing.
  for (w.unknown_left = 0; !found && w.unknown_left <= s.unknown; ++w.unknown_left) {
    for (w.unknown_right = 0; !found && w.unknown_left + w.unknown_right <= s.unknown;
         ++w.unknown_right) {
      if (2 * int64_t{s.unknown - w.unknown_left - w.unknown_right} > cap) {
        continue;  // the balanced outcome keeps too many unknown coins
      }
      for (w.heavy_left = 0; !found && w.heavy_left <= s.heavy; ++w.heavy_left) {
        for (w.heavy_right = 0; !found && w.heavy_left + w.heavy_right <= s.heavy;
             ++w.heavy_right) {
          for (w.light_left = 0; !found && w.light_left <= s.light; ++w.light_left) {
            for (w.light_right = 0; !found && w.light_left + w.light_right <= s.light;
                 ++w.light_right) {
              const int left = w.unknown_left + w.heavy_left + w.light_left;
              const int right = w.unknown_right + w.heavy_right + w.light_right;
              if (right < left || right == 0) continue;
              w.genuine_left = right - left;
              if (w.genuine_left > s.genuine) continue;
              const CountState lh = After(s, w, Outcome::kLeftHeavy);
              const CountState rh = After(s, w, Outcome::kRightHeavy);
              const CountState bal = After(s, w, Outcome::kBalanced);
              if (lh.possibilities() > cap || rh.possibilities() > cap ||
                  bal.possibilities() > cap) {
                continue;
              }
              if (Solvable(lh, k - 1) && Solvable(rh, k - 1) && Solvable(bal, k - 1)) found = w;
            }
          }
        }
      }
    }
  }
  memo_.emplace(key, found);
  return found;
}

int SearchMinWeighings(CountSolver& solver, Variant v, int coins) {
  const CountState start = StartState(v, coins);
  for (int k = 0; k <= kMaxStrategyWeighings; ++k) {
    if (solver.Solvable(start, k)) return k;
  }
  return -1;
}

namespace {

// The real coins of a count state.
struct Groups {
  std::vector<int> unknown, heavy, light, genuine;  // each ascending
};

// Takes the first `n` coins of `from` into `to`; returns the rest.
std::vector<int> Take(const std::vector<int>& from, int n, std::vector<int>& to) {
  to.insert(to.end(), from.begin(), from.begin() + n);
  return {from.begin() + n, from.end()};
}

nlohmann::json Node(CountSolver& solver, const Groups& g, int k) {
  const CountState s{static_cast<int>(g.unknown.size()), static_cast<int>(g.heavy.size()),
                     static_cast<int>(g.light.size()), static_cast<int>(g.genuine.size())};
  if (s.possibilities() == 1) {
    const bool heavier = !g.heavy.empty();
    return {{"coin", heavier ? g.heavy[0] : g.light[0]}, {"heavier", heavier}};
  }
  const std::optional<CountWeighing> w = solver.Solve(s, k);
  assert(w.has_value());
  std::vector<int> left, right, u_left, u_right, h_left, h_right, l_left, l_right;
  std::vector<int> u_off =
      Take(Take(g.unknown, w->unknown_left, u_left), w->unknown_right, u_right);
  std::vector<int> h_off = Take(Take(g.heavy, w->heavy_left, h_left), w->heavy_right, h_right);
  std::vector<int> l_off = Take(Take(g.light, w->light_left, l_left), w->light_right, l_right);
  std::vector<int> genuine_used;
  Take(g.genuine, w->genuine_left, genuine_used);
  for (const auto* part : {&u_left, &h_left, &l_left, &genuine_used}) {
    left.insert(left.end(), part->begin(), part->end());
  }
  for (const auto* part : {&u_right, &h_right, &l_right}) {
    right.insert(right.end(), part->begin(), part->end());
  }
  std::sort(left.begin(), left.end());
  std::sort(right.begin(), right.end());

  // Every coin not left suspect by an outcome becomes genuine.
  std::vector<int> all = g.genuine;
  for (const auto* part : {&g.unknown, &g.heavy, &g.light})
    all.insert(all.end(), part->begin(), part->end());
  const auto child = [&](std::vector<int> unknown, std::vector<int> heavy, std::vector<int> light) {
    Groups c;
    c.unknown = std::move(unknown);
    c.heavy = std::move(heavy);
    c.light = std::move(light);
    std::sort(c.heavy.begin(), c.heavy.end());
    std::sort(c.light.begin(), c.light.end());
    for (int coin : all) {
      const auto in = [&](const std::vector<int>& v) {
        return std::find(v.begin(), v.end(), coin) != v.end();
      };
      if (!in(c.unknown) && !in(c.heavy) && !in(c.light)) c.genuine.push_back(coin);
    }
    std::sort(c.genuine.begin(), c.genuine.end());
    return c;
  };
  const auto cat = [](std::vector<int> a, const std::vector<int>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  nlohmann::json node = {{"left", left}, {"right", right}};
  const Groups lh = child({}, cat(u_left, h_left), cat(u_right, l_right));
  const Groups rh = child({}, cat(u_right, h_right), cat(u_left, l_left));
  const Groups bal = child(u_off, h_off, l_off);
  for (const auto& [name, c] :
       {std::pair{"left_heavy", &lh}, {"balanced", &bal}, {"right_heavy", &rh}}) {
    if (!c->unknown.empty() || !c->heavy.empty() || !c->light.empty()) {
      node[name] = Node(solver, *c, k - 1);
    }
  }
  return node;
}

}  // namespace

nlohmann::json BuildTree(CountSolver& solver, Variant v, int coins, int k) {
  Groups g;
  for (int c = 1; c <= coins; ++c) (v == Variant::kHeavier ? g.heavy : g.unknown).push_back(c);
  if (v == Variant::kReference) g.genuine.push_back(0);
  return Node(solver, g, k);
}

}  // namespace foundry::puzzles::balance
