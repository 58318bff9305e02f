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
  // Within a level, more of that level's work is harder: f = w / (w + c) in
  // [0, 1), c the level's median w at 5x5 (so the median puzzle sits mid-band).
  double work = 0, scale = 1;
  switch (report.level) {
    case 0:  // the chain of deductions
      work = report.rounds;
      scale = 11;
      break;
    case 1:  // its part beyond easy
      work = report.rounds - kEasyRounds;
      scale = 3;
      break;
    case 2:  // what is left for the one trial to settle
      work = report.open;
      scale = 45;
      break;
    default:  // trials beyond the first, then guesses
      work = std::max(0, report.refutations - 1 + report.search_nodes);
      scale = 1;
      break;
  }
  const double f = work / (work + scale);
  // The four levels share [0, 1] in quarters (kQuartileFloors, the table the
  // store applies to observed scores): easy [0, 0.25), ... expert [0.75, 1).
  double score = std::round((report.level + f) / 4.0 * 1000.0) / 1000.0;
  score = std::min(
      score, (250.0 * (report.level + 1) - 1.0) / 1000.0);  // not rounded up into the next level
  d.score = score;
  d.level = std::string(kLevels[report.level]);
  d.details = {{"clues", clues},
               {"propagation_rounds", report.rounds},
               {"open_after_propagation", report.open},
               {"refuted_trials", report.refutations},
               {"trials", report.trials},
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
    for (int i = static_cast<int>(clues.size()) - 1; i > 0; --i)
      std::swap(clues[i], clues[rng.Below(i + 1)]);
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
  // Asked for a level, the grader stops once the puzzle is known to be above it.
  out->report = Solver(t.h, t.k, clues).Grade(o.level >= 0 ? o.level : 3);
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
