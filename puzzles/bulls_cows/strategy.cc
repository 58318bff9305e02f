#include "puzzles/bulls_cows/strategy.h"

#include <array>
#include <cassert>
#include <cmath>

#include "puzzles/bulls_cows/optimal_tree.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// Above this many score evaluations per decision, kOurs considers only the
// first guesses of the candidate list (lengths 5 and 6 early in a game).
constexpr int64_t kWorkLimit = int64_t{1} << 26;
// Alternatives tried, best entropy first, when the budget is at risk.
constexpr int kRepairTries = 10;

using Counts = std::array<uint32_t, kScoreSlots>;

void CountScores(const Universe& u, uint32_t g, std::span<const uint32_t> c, Counts& counts) {
  counts.fill(0);
  if (const uint8_t* row = u.ScoreRow(g)) {
    for (uint32_t s : c) ++counts[row[s]];
  } else {
    for (uint32_t s : c) ++counts[u.Score(g, s)];
  }
}

// The entropy (nats) of the split of `c` by guess g, plus a small bonus for
// a consistent guess (it may win now). Larger is better.
double EntropyKey(const Universe& u, uint32_t g, std::span<const uint32_t> c) {
  Counts counts;
  CountScores(u, g, c, counts);
  double sum = 0;
  for (uint32_t k : counts) {
    if (k > 1) sum += k * std::log(static_cast<double>(k));
  }
  const double n = static_cast<double>(c.size());
  return std::log(n) - sum / n + (counts[u.win_score()] > 0 ? 1e-3 : 0.0);
}

std::span<const uint32_t> Pool(const Universe& u, std::span<const uint32_t> c) {
  std::span<const uint32_t> pool = u.allowed();
  if (static_cast<int64_t>(pool.size()) * static_cast<int64_t>(c.size()) <= kWorkLimit) {
    return pool;
  }
  const auto keep = static_cast<size_t>(std::max<int64_t>(1, kWorkLimit / std::ssize(c)));
  return c.first(std::min(keep, c.size()));
}

// The best guesses by EntropyKey, best first (ties: lower index first).
std::vector<uint32_t> BestByEntropy(const Universe& u, std::span<const uint32_t> c, size_t k) {
  std::vector<std::pair<double, uint32_t>> best;  // sorted, at most k
  for (uint32_t g : Pool(u, c)) {
    const double key = EntropyKey(u, g, c);
    if (best.size() == k && key <= best.back().first) continue;
    auto it = best.begin();
    while (it != best.end() && it->first >= key) ++it;
    best.insert(it, {key, g});
    if (best.size() > k) best.pop_back();
  }
  std::vector<uint32_t> out;
  for (const auto& [key, g] : best) out.push_back(g);
  return out;
}

// Splits `c` by the answers to g: parts[score] in ascending order.
std::array<std::vector<uint32_t>, kScoreSlots> Split(const Universe& u, uint32_t g,
                                                     std::span<const uint32_t> c) {
  std::array<std::vector<uint32_t>, kScoreSlots> parts;
  for (uint32_t s : c) parts[u.Score(g, s)].push_back(s);
  return parts;
}

int GreedyWorst(const Universe& u, std::span<const uint32_t> c, int depth);

// The most guesses any secret of `c` needs when `g` is guess `depth` and the
// plain entropy rule is followed after it.
int WorstAfter(const Universe& u, uint32_t g, std::span<const uint32_t> c, int depth) {
  int worst = 0;
  const auto parts = Split(u, g, c);
  for (int score = 0; score < kScoreSlots; ++score) {
    if (parts[score].empty()) continue;
    worst =
        std::max(worst, score == u.win_score() ? depth : GreedyWorst(u, parts[score], depth + 1));
  }
  return worst;
}

// The most guesses any secret of `c` needs when guess `depth` is about to
// be made and the plain entropy rule is followed from here on.
int GreedyWorst(const Universe& u, std::span<const uint32_t> c, int depth) {
  if (c.size() == 1) return depth;
  return WorstAfter(u, BestByEntropy(u, c, 1).front(), c, depth);
}

uint32_t Ours(const Universe& u, std::span<const uint32_t> c, int depth) {
  if (c.size() <= 2) return c.front();
  const size_t tries = c.size() <= kRepairSize ? kRepairTries : 1;
  const std::vector<uint32_t> best = BestByEntropy(u, c, tries);
  // Even one candidate per further guess fits the budget: nothing to check.
  if (tries == 1 || depth + static_cast<int>(c.size()) - 1 <= GuessBudget(u.length())) {
    return best.front();
  }
  for (uint32_t g : best) {
    if (WorstAfter(u, g, c, depth) <= GuessBudget(u.length())) return g;
  }
  return best.front();
}

void Play(const Universe& u, std::span<const uint32_t> c, StrategyKind kind, int depth,
          StrategyStats& stats) {
  const uint32_t g = NextGuess(u, c, kind, depth - 1);
  const auto parts = Split(u, g, c);
  for (int score = 0; score < kScoreSlots; ++score) {
    const auto& part = parts[score];
    if (part.empty()) continue;
    if (score == u.win_score()) {
      stats.total_guesses += depth;
      stats.worst = std::max(stats.worst, depth);
      if (stats.histogram.size() <= static_cast<size_t>(depth)) stats.histogram.resize(depth + 1);
      ++stats.histogram[depth];
    } else {
      Play(u, part, kind, depth + 1, stats);
    }
  }
}

}  // namespace

int GuessBudget(int length) { return length + 3; }

std::vector<uint32_t> Consistent(const Universe& u, std::span<const uint32_t> candidates,
                                 uint32_t guess, int score) {
  std::vector<uint32_t> out;
  for (uint32_t s : candidates) {
    if (u.Score(guess, s) == score) out.push_back(s);
  }
  return out;
}

uint32_t NextGuess(const Universe& u, std::span<const uint32_t> candidates, StrategyKind kind,
                   int guesses_made) {
  assert(!candidates.empty());
  if (kind == StrategyKind::kSeed) return candidates.front();
  if (kind == StrategyKind::kOptimal) {
    if (const auto g = OptimalTreeGuess(u, candidates, guesses_made)) return *g;
  }
  return Ours(u, candidates, guesses_made + 1);
}

StrategyStats Evaluate(const Universe& u, StrategyKind kind) {
  StrategyStats stats;
  stats.secrets = std::ssize(u.allowed());
  Play(u, u.allowed(), kind, 1, stats);
  return stats;
}

}  // namespace foundry::puzzles::bulls_cows
