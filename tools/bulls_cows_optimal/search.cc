#include "tools/bulls_cows_optimal/search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <unordered_set>

namespace foundry::tools::bulls_cows_optimal {
namespace {

using puzzles::bulls_cows::BullsOf;
using puzzles::bulls_cows::CowsOf;
using puzzles::bulls_cows::kScoreSlots;
using puzzles::bulls_cows::Universe;

constexpr int kLength = 4;
constexpr int kSlots = 14;         // answers to a 4-digit guess, 3 bulls 1 cow impossible
constexpr int kBranches = 13;      // the non-winning ones
constexpr int kPerfectCheck = 14;  // sets this small: look for a guess that splits them all

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int Digit(const Universe& u, uint16_t code, int position) {
  return static_cast<int>((u.codes()[code].packed >> (4 * position)) & 0xF);
}

// The estimate of a part's cost used to order guesses: the level bound of
// a tree with `branches` answers per guess, fewer than 13 (real splits are
// uneven).
int Estimate(int n, int guesses_left, int branches) {
  if (n == 0) return 0;
  if (LevelBound(n, guesses_left) >= kInfinity) return kInfinity;
  int cost = 0;
  int64_t width = 1;
  for (int level = 1; n > 0; ++level, width *= branches) {
    const int here = static_cast<int>(std::min<int64_t>(n, width));
    cost += level * here;
    n -= here;
  }
  return cost;
}

}  // namespace

void AddTreeLines(const Universe& u, const std::vector<std::string>& lines,
                  std::map<std::string, uint16_t>& tree) {
  for (const std::string& line : lines) {
    const size_t space = line.find(' ');
    tree[line.substr(0, space)] = static_cast<uint16_t>(u.Find(line.substr(space + 1)));
  }
}

int LevelBound(int n, int guesses_left) {
  int cost = 0;
  int64_t width = 1;
  for (int level = 1; n > 0; ++level, width *= kBranches) {
    if (level > guesses_left) return kInfinity;
    const int here = static_cast<int>(std::min<int64_t>(n, width));
    cost += level * here;
    n -= here;
  }
  return cost;
}

Searcher::Searcher(const Universe& u, Options options)
    : u_(u), options_(options), n_codes_(u.codes().size()) {
  std::array<int, kScoreSlots> slot_of_score;
  slot_of_score.fill(-1);
  for (int bulls = 0; bulls <= kLength; ++bulls) {
    for (int cows = 0; bulls + cows <= kLength; ++cows) {
      if (bulls == kLength - 1 && cows == 1) continue;
      const int score = puzzles::bulls_cows::MakeScore(bulls, cows);
      slot_of_score[score] = static_cast<int>(slot_score_.size());
      slot_score_.push_back(score);
    }
  }
  win_slot_ = slot_of_score[u.win_score()];
  slot_.resize(n_codes_ * n_codes_);
  for (size_t g = 0; g < n_codes_; ++g) {
    const uint8_t* row = u.ScoreRow(static_cast<uint32_t>(g));
    for (size_t s = 0; s < n_codes_; ++s) {
      slot_[g * n_codes_ + s] = static_cast<uint8_t>(slot_of_score[row[s]]);
    }
  }
  index_of_code_.assign(1 << 16, 0);
  allowed_.assign(n_codes_, 0);
  for (size_t i = 0; i < n_codes_; ++i)
    index_of_code_[u.codes()[i].packed] = static_cast<uint16_t>(i);
  for (uint32_t i : u.allowed()) allowed_[i] = 1;
}

std::string Searcher::SlotText(int slot) const {
  const int score = slot_score_[slot];
  return {static_cast<char>('0' + BullsOf(score)), static_cast<char>('0' + CowsOf(score))};
}

std::vector<uint16_t> Searcher::Part(const std::vector<uint16_t>& set, uint16_t g, int slot) const {
  std::vector<uint16_t> out;
  for (uint16_t s : set) {
    if (SlotOf(g, s) == slot) out.push_back(s);
  }
  return out;
}

uint64_t Searcher::Key(const std::vector<uint16_t>& set, int guesses_left) const {
  uint64_t h = Mix(static_cast<uint64_t>(guesses_left) * 131 + set.size());
  for (uint16_t s : set) h = Mix(h ^ s);
  return h;
}

// One representative of every class of allowed codes under the symmetries
// that fix each guess of `history`: a position permutation sigma with a
// digit permutation pi such that pi(h[i]) = h[sigma(i)] for every guess h.
// Digits no guess uses may be permuted freely, so a code's representative
// is the least image over the valid sigma, free digits renamed in order.
std::vector<uint16_t> Searcher::SymmetryReduced(const std::vector<uint16_t>& history) const {
  std::array<int, kLength> sigma;
  std::iota(sigma.begin(), sigma.end(), 0);
  std::vector<std::pair<std::array<int, kLength>, std::array<int, 10>>> group;
  do {
    // Without a leading zero, digit 0 and the first position stay put.
    if (!u_.leading_zero() && sigma[0] != 0) continue;
    std::array<int, 10> pi;
    std::array<int, 10> inverse;
    pi.fill(-1);
    inverse.fill(-1);
    if (!u_.leading_zero()) pi[0] = inverse[0] = 0;
    bool ok = true;
    for (uint16_t h : history) {
      for (int i = 0; ok && i < kLength; ++i) {
        const int from = Digit(u_, h, i);
        const int to = Digit(u_, h, sigma[i]);
        if (pi[from] == -1 && inverse[to] == -1) {
          pi[from] = to;
          inverse[to] = from;
        } else if (pi[from] != to || inverse[to] != from) {
          ok = false;
        }
      }
    }
    if (ok) group.push_back({sigma, pi});
  } while (std::next_permutation(sigma.begin(), sigma.end()));

  std::unordered_set<uint16_t> seen;
  std::vector<uint16_t> out;
  for (uint32_t g : u_.allowed()) {
    uint32_t least = ~0u;
    for (const auto& [perm, pi] : group) {
      // Digits pi leaves unmapped are free; they take the least free
      // digits in the order they appear.
      std::array<int, kLength> image;
      for (int i = 0; i < kLength; ++i) {
        const int d = Digit(u_, static_cast<uint16_t>(g), i);
        image[perm[i]] = pi[d];  // -1 when free
      }
      std::array<bool, 10> taken{};
      for (int d = 0; d < 10; ++d) {
        if (pi[d] != -1) taken[pi[d]] = true;
      }
      uint32_t packed = 0;
      int next_free = 0;
      for (int i = 0; i < kLength; ++i) {
        int d = image[i];
        if (d == -1) {
          while (taken[next_free]) ++next_free;
          d = next_free++;
        }
        packed |= static_cast<uint32_t>(d) << (4 * i);
      }
      least = std::min(least, packed);
    }
    const uint16_t rep = index_of_code_[least];
    if (seen.insert(rep).second) out.push_back(rep);
  }
  return out;
}

// 2n - 1 when a candidate tells all the others apart (the least possible
// cost for n <= 14), else 0.
int Searcher::PerfectInSet(const std::vector<uint16_t>& set) const {
  for (uint16_t g : set) {
    uint32_t seen = 0;
    bool perfect = true;
    for (uint16_t s : set) {
      const uint32_t bit = 1u << SlotOf(g, s);
      if (seen & bit) {
        perfect = false;
        break;
      }
      seen |= bit;
    }
    if (perfect) return 2 * static_cast<int>(set.size()) - 1;
  }
  return 0;
}

std::vector<uint16_t> Searcher::Guesses(const std::vector<uint16_t>& set,
                                        const std::vector<uint16_t>& history, int guesses_left) {
  const int n = static_cast<int>(set.size());
  const bool small = n <= options_.exact_size;
  std::vector<uint16_t> pool;
  if (small) {
    pool.assign(u_.allowed().begin(), u_.allowed().end());
  } else {
    pool = SymmetryReduced(history);
  }
  struct Ranked {
    double first;  // Options::rank's key: 0 for kEstimate
    int estimate;
    int in_set;
    int parts;
    uint16_t guess;
  };
  std::vector<Ranked> ranked;
  for (uint16_t g : pool) {
    std::array<int, kSlots> counts{};
    for (uint16_t s : set) ++counts[SlotOf(g, s)];
    int estimate = n;
    int parts = 0;
    bool useless = false;
    for (int slot = 0; slot < kSlots; ++slot) {
      if (slot == win_slot_ || counts[slot] == 0) continue;
      if (counts[slot] == n) useless = true;
      ++parts;
      estimate += small ? LevelBound(counts[slot], guesses_left - 1)
                        : Estimate(counts[slot], guesses_left - 1, options_.estimate_branches);
      estimate = std::min(estimate, kInfinity);
    }
    if (useless || estimate >= kInfinity) continue;
    double first = 0;
    if (!small && options_.rank == Options::Rank::kParts) first = -parts;
    if (!small && options_.rank == Options::Rank::kEntropy) {
      for (int slot = 0; slot < kSlots; ++slot) {
        if (slot != win_slot_ && counts[slot] > 1) first += counts[slot] * std::log2(counts[slot]);
      }
    }
    ranked.push_back({first, estimate, counts[win_slot_], parts, g});
  }
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.estimate != b.estimate) return a.estimate < b.estimate;
    if (a.in_set != b.in_set) return a.in_set > b.in_set;
    if (a.parts != b.parts) return a.parts > b.parts;
    return a.guess < b.guess;
  });
  size_t keep = ranked.size();
  if (!small) {
    const bool every = static_cast<int>(history.size()) == options_.every_guess_depth;
    const int top = every                                          ? 1 << 20
                    : history.size() == 1 && options_.top_root > 0 ? options_.top_root
                    : history.size() <= 1                          ? 1 << 20
                    : n > kBigSet && options_.top_big > 0          ? options_.top_big
                                                                   : options_.top;
    keep = static_cast<size_t>(top);
  }
  // Guesses that split the set alike (the same parts, the same winner)
  // cost the same: keep the first of each.
  std::unordered_set<uint64_t> partitions;
  std::vector<uint16_t> out;
  for (const Ranked& r : ranked) {
    if (out.size() >= keep) break;
    std::array<int, kSlots> label;
    label.fill(-1);
    int next = 0;
    uint64_t h = 0;
    for (uint16_t s : set) {
      const int slot = SlotOf(r.guess, s);
      if (slot != win_slot_ && label[slot] == -1) label[slot] = next++;
      h = Mix(h ^ static_cast<uint64_t>(slot == win_slot_ ? 99 : label[slot]));
    }
    if (partitions.insert(h).second) out.push_back(r.guess);
  }
  return out;
}

int Searcher::Solve(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
                    int guesses_left) {
  return SolveBelow(set, history, guesses_left, kInfinity);
}

int Searcher::SolveBelow(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
                         int guesses_left, int limit) {
  std::vector<uint16_t> h = history;
  return Search(set, h, guesses_left, limit);
}

// The least cost below `limit`, or a lower bound >= limit.
int Searcher::Search(const std::vector<uint16_t>& set, std::vector<uint16_t>& history,
                     int guesses_left, int limit) {
  const int n = static_cast<int>(set.size());
  int lb = LevelBound(n, guesses_left);
  if (lb >= limit || n <= 2) return lb;
  if (++nodes_ > node_limit_ && node_limit_ > 0) throw OutOfNodes{};
  const uint64_t key = Key(set, guesses_left);
  if (auto it = memo_.find(key); it != memo_.end()) {
    if (it->second.cost >= 0) return it->second.cost;
    if (it->second.bound >= limit) return it->second.bound;
    lb = std::max(lb, it->second.bound);
  }
  if (n <= kPerfectCheck && guesses_left >= 2) {
    if (const int cost = PerfectInSet(set); cost > 0) {
      // The guess is found again by Emit(); only the cost is kept.
      memo_[key] = {cost, cost, 0xFFFF};
      return cost;
    }
  }
  int best = limit;
  int best_guess = -1;
  int fail = kInfinity;
  std::array<std::vector<uint16_t>, kSlots> parts;
  for (uint16_t g : Guesses(set, history, guesses_left)) {
    for (auto& p : parts) p.clear();
    for (uint16_t s : set) parts[SlotOf(g, s)].push_back(s);
    int acc = n;
    std::array<int, kSlots> order;
    int count = 0;
    for (int slot = 0; slot < kSlots; ++slot) {
      if (slot == win_slot_ || parts[slot].empty()) continue;
      acc = std::min(kInfinity,
                     acc + LevelBound(static_cast<int>(parts[slot].size()), guesses_left - 1));
      order[count++] = slot;
    }
    if (acc >= best) {
      fail = std::min(fail, acc);
      continue;
    }
    std::sort(order.begin(), order.begin() + count,
              [&](int a, int b) { return parts[a].size() > parts[b].size(); });
    history.push_back(g);
    for (int k = 0; k < count && acc < best; ++k) {
      const auto& part = parts[order[k]];
      const int part_lb = LevelBound(static_cast<int>(part.size()), guesses_left - 1);
      const int cost = Search(part, history, guesses_left - 1, best - acc + part_lb);
      acc = std::min(kInfinity, acc + cost - part_lb);
    }
    history.pop_back();
    if (acc < best) {
      best = acc;
      best_guess = g;
      if (best <= lb) break;
    } else {
      fail = std::min(fail, acc);
    }
  }
  Entry& e = memo_[key];
  if (best_guess >= 0) {
    e = {best, best, static_cast<uint16_t>(best_guess)};
    return best;
  }
  e.bound = std::max({e.bound, lb, fail});
  return e.bound;
}

void Searcher::Emit(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
                    int guesses_left, const std::string& path, std::vector<std::string>& lines) {
  if (set.size() <= 2) return;  // the rule: guess the lower candidate
  uint16_t g = 0;
  const auto it = memo_.find(Key(set, guesses_left));
  if (it != memo_.end() && it->second.cost >= 0 && it->second.guess != 0xFFFF) {
    g = it->second.guess;
  } else if (const int cost = PerfectInSet(set); cost > 0 && guesses_left >= 2) {
    for (uint16_t c : set) {
      uint32_t seen = 0;
      bool perfect = true;
      for (uint16_t s : set) {
        perfect = perfect && !(seen & (1u << SlotOf(c, s)));
        seen |= 1u << SlotOf(c, s);
      }
      if (perfect) {
        g = c;
        break;
      }
    }
  } else {
    Solve(set, history, guesses_left);
    g = memo_.at(Key(set, guesses_left)).guess;
  }
  lines.push_back((path.empty() ? std::string("-") : path) + " " + u_.Text(g));
  std::vector<uint16_t> next = history;
  next.push_back(g);
  for (int slot = 0; slot < kSlots; ++slot) {
    if (slot == win_slot_) continue;
    const std::vector<uint16_t> part = Part(set, g, slot);
    if (!part.empty()) Emit(part, next, guesses_left - 1, path + SlotText(slot), lines);
  }
}

}  // namespace foundry::tools::bulls_cows_optimal
