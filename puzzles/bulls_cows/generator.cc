#include "puzzles/bulls_cows/generator.h"

#include <algorithm>
#include <string>

#include "puzzles/bulls_cows/codec.h"
#include "puzzles/bulls_cows/difficulty.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// Drops, in drawn order, every clue the others can do without. A code other
// than the secret stays excluded while it breaks a clue still kept.
void Minimize(const Universe& u, Draft& d) {
  std::vector<uint32_t> masks = BreakMasks(u, d);
  const size_t clues = d.guesses.size();
  if (clues <= 16) {  // distinct masks by presence buckets: no sort
    std::vector<uint8_t> present(size_t{1} << clues, 0);
    for (uint32_t m : masks) present[m] = 1;
    masks.clear();
    for (uint32_t m = 1; m < present.size(); ++m) {
      if (present[m]) masks.push_back(m);
    }
  } else {
    std::sort(masks.begin(), masks.end());
    masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
    if (!masks.empty() && masks.front() == 0) masks.erase(masks.begin());  // the secret
  }
  uint32_t dropped = 0;
  for (size_t c = 0; c < d.guesses.size(); ++c) {
    const uint32_t trial = dropped | (1u << c);
    const bool needed =
        std::any_of(masks.begin(), masks.end(), [&](uint32_t m) { return (m & ~trial) == 0; });
    if (!needed) dropped = trial;
  }
  size_t out = 0;
  for (size_t c = 0; c < d.guesses.size(); ++c) {
    if (dropped & (1u << c)) continue;
    d.guesses[out] = d.guesses[c];
    d.scores[out] = d.scores[c];
    ++out;
  }
  d.guesses.resize(out);
  d.scores.resize(out);
}

uint64_t ValueOf(const std::string& code) { return std::stoull(code); }

}  // namespace

std::vector<uint32_t> BreakMasks(const Universe& u, const Draft& d) {
  const auto& allowed = u.allowed();
  std::vector<uint32_t> masks(allowed.size(), 0);
  for (size_t c = 0; c < d.guesses.size(); ++c) {
    const uint32_t bit = 1u << c;
    const uint32_t g = d.guesses[c];
    const int score = d.scores[c];
    if (const uint8_t* row = u.ScoreRow(g)) {
      for (size_t i = 0; i < allowed.size(); ++i) masks[i] |= row[allowed[i]] != score ? bit : 0;
    } else {
      for (size_t i = 0; i < allowed.size(); ++i) {
        masks[i] |= u.Score(g, allowed[i]) != score ? bit : 0;
      }
    }
  }
  return masks;
}

Candidate Generate(Rng& rng, const GenerateOptions& o) {
  const Universe& u = Universe::For(o.length, o.leading_zero);
  const auto& allowed = u.allowed();
  Draft d;
  d.length = o.length;
  d.leading_zero = o.leading_zero;
  d.secret = allowed[rng.Below(allowed.size())];
  std::vector<uint32_t> left(allowed.begin(), allowed.end()), next;
  next.reserve(left.size());
  // Without `minimal` no clue goes later, so too many is known at once.
  const int limit = o.minimal ? kCluesLimit : o.max_clues;
  while (left.size() > 1) {
    if (static_cast<int>(d.guesses.size()) == limit) return Rejected{"too_many_clues"};
    bool placed = false;
    for (int draw = 0; draw < kMaxDrawsPerClue && !placed; ++draw) {
      const uint32_t g = allowed[rng.Below(allowed.size())];
      if (g == d.secret) continue;
      const int score = u.Score(g, d.secret);
      next.clear();
      for (uint32_t s : left) {
        if (u.Score(g, s) == score) next.push_back(s);
      }
      if (next.size() == left.size()) continue;
      left.swap(next);
      d.guesses.push_back(g);
      d.scores.push_back(score);
      placed = true;
    }
    if (!placed) return Rejected{"no_clue_fits"};
  }
  if (o.minimal) Minimize(u, d);
  const int clues = static_cast<int>(d.guesses.size());
  if (clues > o.max_clues) return Rejected{"too_many_clues"};
  if (clues < o.min_clues) return Rejected{"too_few_clues"};

  Accepted a;
  nlohmann::json clue_array = nlohmann::json::array();
  std::vector<uint64_t> keys;
  for (int c = 0; c < clues; ++c) {
    Clue clue{u.Text(d.guesses[c]), BullsOf(d.scores[c]), CowsOf(d.scores[c])};
    keys.push_back(ClueKey(ValueOf(clue.guess), d.scores[c]));
    clue_array.push_back(ClueJson(clue));
  }
  a.puzzle = nlohmann::json::object();
  a.puzzle["length"] = o.length;
  a.puzzle["leading_zero"] = o.leading_zero;
  a.puzzle["clues"] = std::move(clue_array);
  a.solution = nlohmann::json::object();
  a.solution["secret"] = u.Text(d.secret);
  a.difficulty = RateDifficulty(BreakMasks(u, d), keys);
  return a;
}

}  // namespace foundry::puzzles::bulls_cows
