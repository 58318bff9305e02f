// Polishing a finished tree: every node whose candidate set is small enough
// is searched again, with every useful guess on sets up to
// Options::exact_size, and its subtree is replaced when that search finds
// fewer guesses.
//
// The restricted search (search.h) tries only the best few guesses by an
// estimate on sets above Options::exact_size, and it does so on every set
// it meets, most of which end up in no tree. Searching without restriction
// only the sets the finished tree actually holds costs one exact search per
// node, so it reaches far larger sets than a wider restricted run can.
//
// Thread safety: uses the caller's Searcher, owned by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "puzzles/bulls_cows/codes.h"
#include "tools/bulls_cows_optimal/search.h"

namespace foundry::tools::bulls_cows_optimal {

struct PolishReport {
  int searched = 0;    // nodes searched again
  int gave_up = 0;     // of those, the ones whose search ran out of nodes
  int improved = 0;    // of those, the ones whose subtree was replaced
  int64_t gained = 0;  // guesses saved over every secret
};

// The tree `lines` ("PATH GUESS", as Emit() writes them, in its order) with
// the subtree of each node of min_size..max_size candidates replaced by the
// searcher's when that is cheaper; the nodes below a node searched to the
// end are not visited. With Options::exact_size >= max_size every search
// is unrestricted; above exact_size it tries the searcher's `top` guesses.
// A node's search that visits more than `node_budget` search nodes (0: no
// limit) is given up: its subtree is kept and the nodes below it are
// visited. With `every_guess_at_node` each node's own guess is chosen from
// every useful guess whatever its size (the search below it restricted as
// the options say). Each node's search looks only for a subtree cheaper
// than the tree's, whose cost cuts it short. Progress goes to stderr, one
// line per node searched.
// REQUIRES: `lines` is a complete tree for searcher's universe.
std::vector<std::string> Polish(const puzzles::bulls_cows::Universe& u, Searcher& searcher,
                                const std::vector<std::string>& lines, int min_size, int max_size,
                                int64_t node_budget, bool every_guess_at_node,
                                PolishReport& report);

}  // namespace foundry::tools::bulls_cows_optimal
