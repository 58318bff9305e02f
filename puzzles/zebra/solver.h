// The zebra solver the generator and the grader use, as the seed describes:
// domain propagation to a fixpoint, then try-values (a value whose trial
// propagation empties a domain is dropped: a refuted trial), then search.
// The grade (Grade()) counts how much of each a puzzle needs. Domains are
// bitsets: bit h of an item's domain is set while house h is possible.
//
// Propagation per clue is arc consistency on that clue (position,
// not_position, same, not_same, left_of, immediately_left_of, next_to); per
// category, a placed item's house leaves the other items, a house only one
// item can take goes to it, and a house no item can take is a contradiction.
//
// Thread safety: a Solver only reads its arguments; use one per thread.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "puzzles/zebra/model.h"

namespace foundry::puzzles::zebra {

using Domains = std::array<uint8_t, kMaxItems>;

// Levels of the difficulty table (one table, docs/families/zebra.md
// "Levels"): what the solver must do, easiest first.
//   0 easy    propagation alone, in at most kEasyRounds rounds
//   1 medium  propagation alone, in more rounds (a longer chain of
//             deductions, each needing the one before)
//   2 hard    propagation stalls; one refuted trial (a value whose trial
//             propagation empties a domain, dropped) and propagation again
//             place every item
//   3 expert  no single refuted trial is enough: two or more in turn, or
//             search
inline constexpr int kEasyRounds = 12;

struct SolveReport {
  int solutions = 0;     // counted up to 2; meaningful when level <= the cap
  int level = 0;         // as above; above Grade()'s cap: cap + 1, the rest partial
  int rounds = 0;        // propagation rounds that narrowed something (Rounds())
  int open = 0;          // houses still open when propagation stalls (0 for easy, medium)
  int refutations = 0;   // refuted trials on the greedy path (hard 1, expert >= 2 or search)
  int trials = 0;        // trial placements the grader propagated
  int search_nodes = 0;  // branches tried by the search (expert only)
  Placement solution{};  // the solution, when solutions >= 1
};

class Solver {
 public:
  // The clues are read in place: `clues` must outlive the solver.
  // `skip`, if >= 0, is a clue index to ignore (the generator's "is this
  // clue needed?" question without copying the list).
  Solver(int houses, int categories, std::span<const Clue> clues, int skip = -1);

  // Full domains: every house open for every item (clues apply in Propagate).
  Domains Start() const;
  // Propagation to a fixpoint. False on a contradiction. *passes, if given,
  // is increased by the number of passes over the clues (they depend on the
  // clue order: see Rounds()).
  bool Propagate(Domains& d, int* passes = nullptr) const;
  // Propagation to the same fixpoint as Propagate(), in rounds that each
  // apply every clue and every category to the domains as the round found
  // them: *rounds (increased by the rounds that narrowed something) is the
  // longest chain of deductions, and does not depend on the clue order.
  // False on a contradiction.
  bool Rounds(Domains& d, int* rounds) const;
  // Solutions below `d`, up to `limit`, by propagation and search.
  int Count(Domains d, int limit, int* nodes = nullptr, Placement* first = nullptr) const;

  // Whether every item has one house.
  bool Solved(const Domains& d) const;
  // Houses still open: the sum over items of (houses left - 1); 0 when solved.
  int Open(const Domains& d) const;

  // Counts solutions up to `limit` (2 answers "unique?") by the cheapest
  // path: propagation, then search (no trials).
  int CountSolutions(int limit) const;
  // The grade of a puzzle (the levels above), with the work recorded:
  // Rounds() from the start; if that does not place every item, refuted
  // trials chosen greedily (each step drops the refuted value that leaves
  // the fewest open houses after propagation, the first in item order on a
  // tie; a drop that places every item ends it) until every item is placed
  // or no trial is refuted; then search, counting to two.
  // `max_level` (0..3) is the caller's cap: once the level is known to be
  // above it, Grade() stops with level = max_level + 1 (the generator's
  // early rejection). At or below the cap the report is the full grade's.
  SolveReport Grade(int max_level = 3) const;

 private:
  bool Apply(const Clue& c, Domains& d, bool* changed) const;
  bool Categories(Domains& d, bool* changed) const;

  int h_, k_, n_;
  uint8_t full_;
  std::span<const Clue> clues_;
  int skip_;
};

}  // namespace foundry::puzzles::zebra
