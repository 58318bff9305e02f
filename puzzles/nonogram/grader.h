// The nonogram grade: which deductions a person needs, found by solving the
// way a person does, easiest rule first, never guessing.
//
//   easy    the simple rules (simple_rules.h: slide each run left and
//           right; simple boxes and simple spaces), line after line, solve
//           the grid;
//   medium  they stall, and the complete line solver (line_solver.h:
//           everything a line's clue and known cells force) solves it;
//   hard    line solving stalls, and one layer of probing (probing.h: the
//           suppositions that lead to a contradiction by line solving, all
//           visible from the line-solved grid) with line solving after it
//           solves it;
//   expert  it needs more: a second layer of probing (a contradiction that
//           appears only once an earlier one is known), or line solving and
//           probing stall and only nested suppositions finish it (the
//           solution must then be unique by a search).
//
// Each stage starts from where the one before stopped, and each stage's end
// state is its rule's fixed point, so the grade does not depend on the order
// lines are taken in.
//
// Thread safety: pure functions.
#pragma once

#include "puzzles/family.h"
#include "puzzles/nonogram/board.h"

namespace foundry::puzzles::nonogram {

inline constexpr int kEasy = 0, kMedium = 1, kHard = 2, kExpert = 3;

struct Grading {
  int level = kEasy;           // kEasy..kExpert; with `stopped`, above `last`
  bool stopped = false;        // cells open after stage `last`: the level is above it
  bool consistent = true;      // false: the clues contradict themselves
  int simple_sweeps = 0;       // sweeps of the simple rules until they stalled
  int line_sweeps = 0;         // sweeps of the complete line solver after that
  int probes = 0;              // cells settled by a contradiction
  int probe_layers = 0;        // probing layers that settled a cell
  int open_after_probing = 0;  // cells line solving and probing left open
  // Probing skipped: a quick search found a second solution (only with
  // `ambiguity_budget`); the puzzle is not unique and the grade is void.
  bool ambiguous = false;
};

// Grades from an empty `board` (nothing known), running the stages up to
// `last` (kHard for the full grade; lower to stop early when only a lower
// level is wanted). `board` ends at the last stage's fixed point. `hint`:
// as for ProbeToFixedPoint (a solution, to halve the probes; the grade is
// the same).
// `ambiguity_budget` > 0 (the generator, with the image as `hint`): before
// probing, FindOtherSolutionNear (search.h) spends up to that many boards
// looking for a second solution, and on finding one stops with `ambiguous`.
// Probing cannot settle a cell two solutions disagree on, so such a puzzle
// would end rejected anyway, after probing every open cell.
Grading Grade(Board& board, const Rows* hint, int last = kHard, int64_t ambiguity_budget = 0);

// The family's Difficulty for a finished grading (not `stopped`). Score =
// (level + f) / 4 with f in [0, 1): easy, the sweeps the simple rules took;
// medium, the sweeps of the line solver; hard, the cells probing settled;
// expert, the probing layers below 0.5, the share of cells probing left
// open above it. REQUIRES: !g.stopped.
Difficulty ToDifficulty(const Grading& g, int cells);

}  // namespace foundry::puzzles::nonogram
