#include "puzzles/zebra/generator.h"

#include <algorithm>
#include <cmath>

#include "puzzles/zebra/codec.h"

namespace foundry::puzzles::zebra {
namespace {

// Draw weights per clue type (ClueType order). Positive relations dominate,
// as in published puzzles; minimisation drops most weak clues anyway.
constexpr int kWeights[kClueTypeCount] = {1, 1, 4, 2, 2, 2, 3};
constexpr int kWeightSum = 15;

struct Truth {
  int h, k;
  Placement house_of{};
  std::array<std::array<uint8_t, kMaxHouses>, kMaxCategories> at{};  // at[c][house] = item number
};

Clue Draw(Rng& rng, const Truth& t) {
  int w = static_cast<int>(rng.Below(kWeightSum));
  int type = 0;
  while (w >= kWeights[type]) w -= kWeights[type++];
  Clue c;
  c.type = static_cast<ClueType>(type);
  const int n = t.h * t.k;
  auto other_category = [&](int cat) {
    const int x = static_cast<int>(rng.Below(t.k - 1));
    return x >= cat ? x + 1 : x;
  };
  switch (c.type) {
    case ClueType::kPosition:
      c.a = static_cast<uint8_t>(rng.Below(n));
      c.house = t.house_of[c.a];
      break;
    case ClueType::kNotPosition: {
      c.a = static_cast<uint8_t>(rng.Below(n));
      const int x = static_cast<int>(rng.Below(t.h - 1));
      c.house = static_cast<int8_t>(x >= t.house_of[c.a] ? x + 1 : x);
      break;
    }
    case ClueType::kSame: {
      const int house = static_cast<int>(rng.Below(t.h));
      const int ca = static_cast<int>(rng.Below(t.k));
      c.a = t.at[ca][house];
      c.b = t.at[other_category(ca)][house];
      break;
    }
    case ClueType::kNotSame: {
      c.a = static_cast<uint8_t>(rng.Below(n));
      const int cb = other_category(c.a / t.h);
      const int x = static_cast<int>(rng.Below(t.h - 1));
      const int house = x >= t.house_of[c.a] ? x + 1 : x;
      c.b = t.at[cb][house];
      break;
    }
    case ClueType::kLeftOf: {
      const int x = static_cast<int>(rng.Below(t.h)), y0 = static_cast<int>(rng.Below(t.h - 1));
      const int y = y0 >= x ? y0 + 1 : y0;
      c.a = t.at[rng.Below(t.k)][std::min(x, y)];
      c.b = t.at[rng.Below(t.k)][std::max(x, y)];
      break;
    }
    case ClueType::kImmediatelyLeftOf:
    case ClueType::kNextTo: {
      const int x = static_cast<int>(rng.Below(t.h - 1));
      c.a = t.at[rng.Below(t.k)][x];
      c.b = t.at[rng.Below(t.k)][x + 1];
      if (c.type == ClueType::kNextTo && rng.Below(2)) std::swap(c.a, c.b);
      break;
    }
  }
  return c;
}

}  // namespace

Difficulty RateDifficulty(const SolveReport& report, int clues) {
  Difficulty d;
  d.level = std::string(kLevels[report.level]);
  // Within a level, more work at that level is harder; f in [0, 1).
  double work = 0;
  if (report.level == 0) work = report.propagation_passes;
  if (report.level == 1) work = report.try_eliminations;
  if (report.level == 2) work = report.search_nodes;
  const double f = work / (work + 8.0);
  // Three levels share [0, 1]: easy [0, 1/3), medium [1/3, 2/3), hard [2/3, 1).
  d.score = std::round((report.level + f) / 3.0 * 1000.0) / 1000.0;
  if (d.score >= 1.0) d.score = 0.999;
  d.details = {{"clues", clues},
               {"propagation_passes", report.propagation_passes},
               {"try_eliminations", report.try_eliminations},
               {"search_nodes", report.search_nodes}};
  return d;
}

bool Build(Rng& rng, const GenerateOptions& o, Draft* out, const char** reason) {
  Truth t;
  t.h = o.houses;
  t.k = o.categories;
  for (int c = 0; c < t.k; ++c) {
    uint8_t perm[kMaxHouses];
    for (int i = 0; i < t.h; ++i) perm[i] = static_cast<uint8_t>(i);
    for (int i = t.h - 1; i > 0; --i) std::swap(perm[i], perm[rng.Below(i + 1)]);
    for (int i = 0; i < t.h; ++i) {
      t.house_of[c * t.h + i] = static_cast<int8_t>(perm[i]);
      t.at[c][perm[i]] = static_cast<uint8_t>(c * t.h + i);
    }
  }

  // Step 2: a random pinning subset of true clues.
  std::vector<Clue>& clues = out->clues;
  clues.clear();
  clues.reserve(64);
  Domains d = Solver(t.h, t.k, clues).Start();
  for (int draws = 0;; ++draws) {
    if (draws >= kMaxDraws) {
      *reason = "no_clue_fits";
      return false;
    }
    clues.push_back(Draw(rng, t));
    const Solver s(t.h, t.k, clues);
    Domains next = d;
    if (!s.Propagate(next)) {  // cannot happen with true clues; be safe
      clues.pop_back();
      continue;
    }
    if (next == d) {
      clues.pop_back();  // implied by the clues so far
      continue;
    }
    d = next;
    if (s.Solved(d)) break;
  }

  // Step 3: the seed's removal, in random order, to a minimal set.
  if (o.minimal) {
    for (int i = static_cast<int>(clues.size()) - 1; i > 0; --i) std::swap(clues[i], clues[rng.Below(i + 1)]);
    for (size_t i = 0; i < clues.size();) {
      if (Solver(t.h, t.k, clues, static_cast<int>(i)).CountSolutions(2) == 1) {
        clues.erase(clues.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }

  // Step 4: the grade.
  out->houses = t.h;
  out->categories = t.k;
  out->solution = t.house_of;
  out->report = Solver(t.h, t.k, clues).Grade();
  if (o.level >= 0 && out->report.level != o.level) {
    *reason = "level";
    return false;
  }
  return true;
}

Candidate Generate(Rng& rng, const GenerateOptions& options) {
  Draft draft;
  const char* reason = "";
  if (!Build(rng, options, &draft, &reason)) return Rejected{reason};
  ParsedPuzzle p;
  p.houses = draft.houses;
  p.categories = ThemedCategories(draft.houses, draft.categories);
  p.clues = draft.clues;
  Accepted a;
  a.puzzle = PuzzleJson(p);
  a.solution = SolutionJson(p, draft.solution);
  a.difficulty = RateDifficulty(draft.report, static_cast<int>(draft.clues.size()));
  return a;
}

}  // namespace foundry::puzzles::zebra
