#include "puzzles/sudoku/grader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "puzzles/sudoku/grading_logic.h"
#include "puzzles/sudoku/shape_dispatch.h"

namespace foundry::puzzles::sudoku {
namespace {

struct TechniqueInfo {
  Technique t;
  std::string_view name;
  int level;
};

// The difficulty table, in the order the grader tries the techniques.
constexpr TechniqueInfo kTable[kTechniqueCount] = {
    {Technique::kNakedSingle, "naked_single", 0},
    {Technique::kHiddenSingle, "hidden_single", 0},
    {Technique::kLockedCandidates, "locked_candidates", 1},
    {Technique::kNakedPair, "naked_pair", 1},
    {Technique::kHiddenPair, "hidden_pair", 1},
    {Technique::kNakedTriple, "naked_triple", 2},
    {Technique::kHiddenTriple, "hidden_triple", 2},
    {Technique::kXWing, "x_wing", 2},
    {Technique::kXYWing, "xy_wing", 2},
    {Technique::kSwordfish, "swordfish", 2},
    {Technique::kNakedQuad, "naked_quad", 2},
    {Technique::kHiddenQuad, "hidden_quad", 2},
};

constexpr bool LevelsNeverDrop() {
  for (int i = 1; i < kTechniqueCount; ++i) {
    if (kTable[i].level < kTable[i - 1].level) return false;
  }
  return true;
}
static_assert(LevelsNeverDrop(), "Run() stops at the first technique above max_level");

// One grade: the easiest technique that makes progress, then from the
// easiest again, until the grid is full or nothing applies.
template <int R, int C>
struct Grader {
  static Grade Run(const Grid& puzzle, int max_level) {
    grading::GradingLogic<R, C> logic(puzzle);
    Grade grade;
    grade.clues = R * C * R * C - logic.open();
    while (logic.open() > 0 && !logic.broken()) {
      bool progress = false;
      for (const TechniqueInfo& info : kTable) {
        if (info.level > max_level) break;  // the table is in level order
        if (logic.Apply(info.t)) {
          ++grade.uses[static_cast<int>(info.t)];
          grade.level = std::max(grade.level, info.level);
          progress = true;
          break;
        }
      }
      if (!progress) break;
    }
    grade.contradiction = logic.broken();
    grade.filled.assign(logic.digits().begin(), logic.digits().end());
    if (logic.open() > 0 && !logic.broken()) {
      grade.capped = max_level < 3;
      // Only a full grade's are kept: Verify counts from them, while a
      // capped grade (a level filter, many per candidate) only needs its level.
      if (!grade.capped) {
        grade.candidates.assign(logic.candidates().begin(), logic.candidates().end());
        for (size_t c = 0; c < grade.candidates.size(); ++c) {
          if (grade.filled[c])
            grade.candidates[c] = static_cast<uint16_t>(1u << (grade.filled[c] - 1));
        }
      }
      grade.level = std::min(3, max_level + 1);  // 3: needs search
      grade.unsolved_when_stuck = logic.open();
    }
    return grade;
  }
};

}  // namespace

std::string_view TechniqueName(Technique t) { return kTable[static_cast<int>(t)].name; }
int TechniqueLevel(Technique t) { return kTable[static_cast<int>(t)].level; }

Difficulty Grade::ToDifficulty() const {
  Difficulty d;
  d.level = std::string(kLevels[level]);
  // Within a level, more steps at that level (or, for expert, more cells left
  // when logic ran out) is harder. f in [0, 1).
  double f = 0;
  if (level == 3) {
    f = std::min(0.999, unsolved_when_stuck / 81.0);
  } else {
    int at_level = 0;
    for (const TechniqueInfo& info : kTable) {
      if (info.level == level) at_level += uses[static_cast<int>(info.t)];
    }
    f = level == 0 ? std::min(0.999, at_level / 120.0) : at_level / (at_level + 4.0);
  }
  d.score = std::round((level + f) / 4.0 * 1000.0) / 1000.0;
  nlohmann::json techniques = nlohmann::json::object();
  std::string hardest = level == 3 ? "search" : "naked_single";
  for (const TechniqueInfo& info : kTable) {
    const int k = uses[static_cast<int>(info.t)];
    if (k == 0) continue;
    techniques[std::string(info.name)] = k;
    if (level < 3) hardest = std::string(info.name);
  }
  // Filled in place: a braced list would copy `techniques` (its elements
  // are const).
  d.details["clues"] = clues;
  d.details["hardest"] = std::move(hardest);
  d.details["techniques"] = std::move(techniques);
  return d;
}

Grade GradePuzzle(const Shape& shape, const Grid& puzzle, int max_level) {
  return DispatchShape<Grader>(shape, [&]<typename G>() { return G::Run(puzzle, max_level); });
}

}  // namespace foundry::puzzles::sudoku
