// The inverse problem of seed 003: the computer guesses, a person answers
// bulls and cows. Two strategies, both deterministic:
//
//   kSeed  the seed's algorithm: keep the codes consistent with every answer
//          so far, in ascending order, and guess the first one ("5-6 moves").
//   kOurs  information first: guess the allowed code (consistent or not)
//          whose answer splits the candidates with the greatest entropy,
//          preferring a consistent code on a tie, then the lowest. On small
//          sets (at most kRepairSize candidates) the choice is checked
//          against a guess budget (7 at length 4): when following the
//          entropy rule below this node could need more guesses than the
//          budget, the next best guesses by entropy are tried instead and the
//          first that stays within it is taken. Measured at length 4: 5.243
//          average and 7 worst over 5040 secrets, 5.165 and 7 over 4536
//          (the proven optimum is 5.213 over 5040, Tanaka 1996).
//   kOptimal follow the decision trees shipped for length 4
//          (optimal_tree.h): with a leading zero allowed 26,274 guesses
//          over all 5040 secrets (5.2131 average, the proven optimum),
//          without one 23,284 over 4536 (5.1332); worst 7.
//          Anywhere the trees do not cover (other lengths, a game that did
//          not follow them) it plays kOurs.
//
// Candidates are indices into Universe::codes(), ascending, all allowed.
// Thread safety: pure functions over the immutable Universe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "puzzles/bulls_cows/codes.h"

namespace foundry::puzzles::bulls_cows {

enum class StrategyKind { kSeed, kOurs, kOptimal };

inline constexpr int kRepairSize = 50;

// The most guesses kOurs aims to need for a universe of `length` (its
// repair budget): 6, 7, 8, 9 for lengths 3..6.
int GuessBudget(int length);

// The candidates of `candidates` that would answer `score` to `guess`, in
// the same order.
std::vector<uint32_t> Consistent(const Universe& u, std::span<const uint32_t> candidates,
                                 uint32_t guess, int score);

// The guess to make next, when `candidates` are the codes still consistent
// and `guesses_made` guesses were made before. REQUIRES: candidates is not
// empty, ascending, a subset of u.allowed().
uint32_t NextGuess(const Universe& u, std::span<const uint32_t> candidates, StrategyKind kind,
                   int guesses_made);

// How a strategy does over every allowed secret.
struct StrategyStats {
  int64_t secrets = 0;
  int64_t total_guesses = 0;       // the winning guess included
  int worst = 0;                   // the most guesses any secret needs
  std::vector<int64_t> histogram;  // histogram[k]: secrets found with guess k
  double average() const {
    return secrets == 0 ? 0 : static_cast<double>(total_guesses) / static_cast<double>(secrets);
  }
};

// Plays the strategy against every allowed secret at once (one decision
// tree). About a second for kOurs and kOptimal at length 4; meant for lengths 3 and 4
// (longer lengths take minutes).
StrategyStats Evaluate(const Universe& u, StrategyKind kind);

}  // namespace foundry::puzzles::bulls_cows
