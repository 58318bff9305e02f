// The shipped decision trees of the kOptimal strategy (strategy.h): which
// code to guess after each sequence of answers, for 4 digits. Searched
// offline by tools/bulls_cows_optimal (a restricted branch and bound for
// the least total number of guesses over every secret, at most 7 each) and
// compiled in as text:
//
//   optimal_tree_4.inc           leading zero allowed, 5040 secrets:
//                                26,274 guesses in all, the proven
//                                optimum
//   optimal_tree_4_no_zero.inc   no leading zero, 4536 secrets: 23,284
//                                guesses in all (no optimum published)
//
// Format, one guess per line, '#' starts a comment line:
//
//   PATH GUESS
//
// PATH is "-" for the first guess, else the answers so far, one "BC" pair
// of digits each (bulls, cows): "0112 2304" means "after answers 0 bulls
// 1 cow, then 1 bull 2 cows, guess 2304". A position the file does not
// list has at most two candidates left, and the lower one is guessed.
// Regenerate with tools/bulls_cows_optimal: a restricted search, two
// answers to the first guess searched wider and merged in, then
// polishing runs that search the tree's own nodes again (the commands and
// their times are in docs/families/bulls-cows.md, "The tree and its
// generator"; the file's '#' lines record the options of each step).
//
// Thread safety: the trees are parsed once (a thread-safe lazy static) and
// immutable afterwards.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "puzzles/bulls_cows/codes.h"

namespace foundry::puzzles::bulls_cows {

// One line of a tree: the answers leading to a guess, and the guess.
struct TreeEntry {
  std::string path;   // "-" or "BC" pairs
  std::string guess;  // "0123"
};

// The lines of the tree for universe `u` in file order; empty when no tree
// is shipped for it (lengths other than 4).
const std::vector<TreeEntry>& OptimalTreeEntries(const Universe& u);

// The tree's next guess when `candidates` (ascending, not empty) are the
// codes left after `guesses_made` guesses that all followed the tree.
// nullopt when the tree has nothing to say: no tree for `u`, candidates
// that disagree on the answers the tree's guesses would have had (the game
// left the tree), or a position the file does not list (at most two
// candidates: guess the lower).
std::optional<uint32_t> OptimalTreeGuess(const Universe& u, std::span<const uint32_t> candidates,
                                         int guesses_made);

}  // namespace foundry::puzzles::bulls_cows
