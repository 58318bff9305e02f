// The zebra solver the generator and the grader use, as the seed describes:
// domain propagation to a fixpoint, then try-values (a value whose trial
// propagation empties a domain is dropped), then search. Domains are
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

// Levels of the difficulty table (DESIGN.md): the solver's work.
//   0 easy    propagation alone places every item
//   1 medium  try-values is needed as well
//   2 hard    search is needed
struct SolveReport {
  int solutions = 0;          // counted up to the limit given
  int level = 0;              // as above; meaningful when solutions == 1
  int propagation_passes = 0; // fixpoint rounds before try-values
  int try_eliminations = 0;   // values dropped by try-values
  int search_nodes = 0;       // branches tried by the search
  Placement solution{};       // the first solution found
};

class Solver {
 public:
  // The clues are read in place: `clues` must outlive the solver.
  // `skip`, if >= 0, is a clue index to ignore (the generator's "is this
  // clue needed?" question without copying the list).
  Solver(int houses, int categories, std::span<const Clue> clues, int skip = -1);

  // Full domains, with unary clues applied.
  Domains Start() const;
  // Propagation to a fixpoint. False on a contradiction. *passes, if given,
  // is increased by the number of rounds.
  bool Propagate(Domains& d, int* passes = nullptr) const;
  // The seed's try-values, repeated until nothing changes; propagates after
  // each drop. False on a contradiction.
  bool TryValues(Domains& d, int* eliminations) const;
  // Solutions below `d`, up to `limit`, by propagation and search.
  int Count(Domains d, int limit, int* nodes = nullptr, Placement* first = nullptr) const;

  // Whether every item has one house.
  bool Solved(const Domains& d) const;

  // Counts solutions up to `limit` (2 answers "unique?") by the cheapest
  // path: propagation, then search (no try-values).
  int CountSolutions(int limit) const;
  // Propagation, try-values, then search, with the work of each recorded:
  // the grade of a unique puzzle.
  SolveReport Grade() const;

 private:
  bool Apply(const Clue& c, Domains& d, bool* changed) const;
  bool Categories(Domains& d, bool* changed) const;

  int h_, k_, n_;
  uint8_t full_;
  std::span<const Clue> clues_;
  int skip_;
};

}  // namespace foundry::puzzles::zebra
