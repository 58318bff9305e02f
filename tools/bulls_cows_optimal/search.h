// The search behind bulls_cows_optimal: a decision tree for the 4-digit
// game that minimises the total number of guesses over every allowed
// secret (the winning guess counted), with at most kMaxGuesses per secret.
//
// cost(S) = |S| + sum over the non-winning answers a of cost(S_a): every
// candidate pays for the guess, the one it wins on pays nothing more. The
// search is a depth-first branch and bound:
//   - guesses are all allowed codes (consistent or not), reduced by the
//     symmetries that fix every guess made so far (digit and position
//     permutations; without a leading zero, those that keep digit 0 and the
//     first position in place) and, on small sets, by the partition they
//     make (two guesses that split the set alike cost the same);
//   - each guess's partition is bounded from below by LevelBound(): in a
//     tree with at most 13 non-winning answers per node, at most 13^(k-1)
//     candidates can be found with guess k;
//   - guesses are tried best first by an estimate, and on sets larger than
//     Options::exact_size only the `top` best of them (a restricted search:
//     its result is an upper bound, exact when it meets the proven optimum);
//   - results are memoised per (candidate set, guesses left).
//
// Thread safety: a Searcher is owned by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "puzzles/bulls_cows/codes.h"

namespace foundry::tools::bulls_cows_optimal {

inline constexpr int kMaxGuesses = 7;
inline constexpr int kInfinity = 1 << 29;
inline constexpr int kBigSet = 100;

// How wide the restricted search is.
struct Options {
  int exact_size = 30;  // sets up to this size: every useful guess is tried
  int top = 12;         // larger sets: this many guesses, best estimate first
  int top_big = 0;      // sets above kBigSet: this many (0: `top`)
  int top_root = 0;     // the second guess of the game: 0 means every one
  // Larger sets' guesses are ranked by the cost of trees that split each
  // part this many ways per guess (real splits are uneven, so fewer than 13).
  int estimate_branches = 6;
  // What orders larger sets' guesses before the cut to `top`: the estimate
  // above, or first the most parts (kParts), or first the least sum of
  // c log c over the parts' sizes c (kEntropy); ties by the estimate. Each
  // ranking keeps other guesses, so a search that one misses, another may
  // find.
  enum class Rank { kEstimate, kParts, kEntropy };
  Rank rank = Rank::kEstimate;
  // The sets reached after exactly this many guesses are searched with
  // every useful guess, whatever their size (a polished node: its own guess
  // widened, the search below it restricted as above); -1: none.
  int every_guess_depth = -1;
};

class Searcher {
 public:
  // `u`: the universe of length 4 (with or without a leading zero).
  Searcher(const puzzles::bulls_cows::Universe& u, Options options);

  // The least cost found for the candidates consistent with the guesses in
  // `history` (code indices, in order), when at most `guesses_left` more
  // guesses may be made; kInfinity when none fits. `set` ascending.
  int Solve(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
            int guesses_left);

  // As Solve(), but only a cost below `limit` is looked for (an incumbent
  // tree's, so that every branch that cannot beat it is cut): the least
  // cost found when it is below `limit`, else a lower bound >= `limit` (on
  // the restricted search's trees).
  int SolveBelow(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
                 int guesses_left, int limit);

  // Options::every_guess_depth for the searches that follow.
  void set_every_guess_depth(int depth) { options_.every_guess_depth = depth; }

  // Appends the tree below an already solved set, one line per guess made
  // with at least three candidates left: "PATH GUESS", where PATH is `path`
  // followed by the answers so far as "BC" digit pairs.
  void Emit(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
            int guesses_left, const std::string& path, std::vector<std::string>& lines);

  // The candidates of `set` giving answer slot `slot` to guess g, and the
  // slot of the winning answer; slots number the 14 possible answers.
  std::vector<uint16_t> Part(const std::vector<uint16_t>& set, uint16_t g, int slot) const;
  int SlotOf(uint16_t g, uint16_t s) const { return slot_[size_t{g} * n_codes_ + s]; }
  int win_slot() const { return win_slot_; }
  // "BC" for a slot: bulls and cows as two digits.
  std::string SlotText(int slot) const;

  // One first guess of every class the symmetries leave apart (one with a
  // leading zero allowed: 0123; two without).
  std::vector<uint16_t> FirstGuesses() const { return SymmetryReduced({}); }

  int64_t nodes() const { return nodes_; }
  // Solve() throws OutOfNodes once nodes() passes `total` (0: never). The
  // memo stays sound: an entry is written only when its search completes.
  void set_node_limit(int64_t total) { node_limit_ = total; }
  size_t memo_size() const { return memo_.size(); }

 private:
  struct Entry {
    int bound = 0;       // cost >= bound
    int cost = -1;       // the best cost found, when searched to the end
    uint16_t guess = 0;  // the guess that gives it
  };
  int Search(const std::vector<uint16_t>& set, std::vector<uint16_t>& history, int guesses_left,
             int limit);
  std::vector<uint16_t> Guesses(const std::vector<uint16_t>& set,
                                const std::vector<uint16_t>& history, int guesses_left);
  std::vector<uint16_t> SymmetryReduced(const std::vector<uint16_t>& history) const;
  int PerfectInSet(const std::vector<uint16_t>& set) const;
  uint64_t Key(const std::vector<uint16_t>& set, int guesses_left) const;

  const puzzles::bulls_cows::Universe& u_;
  Options options_;
  size_t n_codes_;
  std::vector<uint8_t> slot_;  // slot of (guess, secret), n_codes_^2
  int win_slot_ = 0;
  std::vector<int> slot_score_;          // the score of each slot
  std::vector<uint16_t> index_of_code_;  // packed code -> index
  std::vector<uint8_t> allowed_;         // per code index
  std::unordered_map<uint64_t, Entry> memo_;
  int64_t nodes_ = 0;
  int64_t node_limit_ = 0;
};

// Thrown by Searcher::Solve() past its node limit.
struct OutOfNodes {};

// Adds the tree lines `lines` ("PATH GUESS", as Emit() writes them) to
// `tree`, path -> guess code index.
void AddTreeLines(const puzzles::bulls_cows::Universe& u, const std::vector<std::string>& lines,
                  std::map<std::string, uint16_t>& tree);

// The least total depth of a tree finding `n` candidates within
// `guesses_left` guesses, at most 13 non-winning answers per guess;
// kInfinity when they cannot fit.
int LevelBound(int n, int guesses_left);

}  // namespace foundry::tools::bulls_cows_optimal
