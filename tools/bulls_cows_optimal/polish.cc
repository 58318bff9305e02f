#include "tools/bulls_cows_optimal/polish.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include <fmt/format.h>

namespace foundry::tools::bulls_cows_optimal {
namespace {

using puzzles::bulls_cows::Universe;

class Polisher {
 public:
  Polisher(const Universe& u, Searcher& s, const std::vector<std::string>& lines, int min_size,
           int max_size, int64_t node_budget, bool every_guess_at_node, PolishReport& report)
      : u_(u),
        s_(s),
        min_(min_size),
        max_(max_size),
        budget_(node_budget),
        every_guess_(every_guess_at_node),
        report_(report) {
    AddTreeLines(u, lines, tree_);
  }

  std::vector<std::string> Run() {
    const std::vector<uint16_t> all(u_.allowed().begin(), u_.allowed().end());
    std::vector<uint16_t> history;
    Visit(all, history, "", kMaxGuesses);
    std::vector<std::string> out;
    Write(all, "", out);
    return out;
  }

 private:
  // The tree's guess at `path` for `set`; for a path it does not list (at
  // most two candidates), the lower candidate.
  uint16_t GuessAt(const std::vector<uint16_t>& set, const std::string& path) const {
    const auto it = tree_.find(path.empty() ? "-" : path);
    return it != tree_.end() ? it->second : set.front();
  }

  // Guesses the tree makes for every secret of `set`, counted from here.
  int64_t TreeCost(const std::vector<uint16_t>& set, const std::string& path) const {
    if (set.empty()) return 0;
    const uint16_t g = GuessAt(set, path);
    int64_t cost = static_cast<int64_t>(set.size());
    for (int slot = 0; slot < 14; ++slot) {
      if (slot == s_.win_slot()) continue;
      const std::vector<uint16_t> part = s_.Part(set, g, slot);
      if (!part.empty()) cost += TreeCost(part, path + s_.SlotText(slot));
    }
    return cost;
  }

  void Visit(const std::vector<uint16_t>& set, std::vector<uint16_t>& history,
             const std::string& path, int guesses_left) {
    const int n = static_cast<int>(set.size());
    if (n <= 2) return;
    if (n >= min_ && n <= max_ && SearchAgain(set, history, path, guesses_left)) return;
    const uint16_t g = GuessAt(set, path);
    history.push_back(g);
    for (int slot = 0; slot < 14; ++slot) {
      if (slot == s_.win_slot()) continue;
      const std::vector<uint16_t> part = s_.Part(set, g, slot);
      if (!part.empty()) Visit(part, history, path + s_.SlotText(slot), guesses_left - 1);
    }
    history.pop_back();
  }

  // Searches `set` again and replaces its subtree when that is cheaper;
  // false when the search ran out of nodes (the nodes below are then
  // worth visiting).
  bool SearchAgain(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
                   const std::string& path, int guesses_left) {
    const int n = static_cast<int>(set.size());
    const char* name = path.empty() ? "-" : path.c_str();
    ++report_.searched;
    const auto start = std::chrono::steady_clock::now();
    const int64_t before = TreeCost(set, path);
    int best = 0;
    const int64_t nodes_before = s_.nodes();
    s_.set_node_limit(budget_ > 0 ? s_.nodes() + budget_ : 0);
    if (every_guess_) s_.set_every_guess_depth(static_cast<int>(history.size()));
    try {
      // Only a subtree cheaper than the tree's is wanted: its cost cuts
      // every branch that cannot beat it.
      best = s_.SolveBelow(set, history, guesses_left, static_cast<int>(before));
    } catch (const OutOfNodes&) {
      s_.set_every_guess_depth(-1);
      ++report_.gave_up;
      std::fprintf(stderr, "  %s (%d candidates): given up after %lld search nodes\n", name, n,
                   static_cast<long long>(budget_));
      return false;
    }
    s_.set_node_limit(0);  // Emit() may search again below
    const bool better = best < before;
    if (better) {
      ++report_.improved;
      report_.gained += before - best;
      Replace(set, history, path, guesses_left);  // at the same depth setting
    }
    const std::string outcome = better ? fmt::format("{} -> {} guesses", before, best)
                                       : fmt::format("{}, none better", before);
    std::fprintf(stderr, "  %s (%d candidates): %s (%.1f s, %lld nodes)\n", name, n,
                 outcome.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                 static_cast<long long>(s_.nodes() - nodes_before));
    s_.set_every_guess_depth(-1);
    return true;
  }

  // Puts the searcher's subtree for `set` in place of the tree's.
  void Replace(const std::vector<uint16_t>& set, const std::vector<uint16_t>& history,
               const std::string& path, int guesses_left) {
    // The node and everything below it: their paths start with `path` (the
    // root's "-" with the empty path).
    for (auto it = tree_.lower_bound(path); it != tree_.end() && it->first.starts_with(path);) {
      it = tree_.erase(it);
    }
    std::vector<std::string> fresh;
    s_.Emit(set, history, guesses_left, path, fresh);
    AddTreeLines(u_, fresh, tree_);
  }

  // The tree's lines in Emit()'s order: a node, then its answers by slot.
  void Write(const std::vector<uint16_t>& set, const std::string& path,
             std::vector<std::string>& out) const {
    if (set.size() <= 2) return;
    const uint16_t g = GuessAt(set, path);
    out.push_back((path.empty() ? std::string("-") : path) + " " + u_.Text(g));
    for (int slot = 0; slot < 14; ++slot) {
      if (slot == s_.win_slot()) continue;
      const std::vector<uint16_t> part = s_.Part(set, g, slot);
      if (!part.empty()) Write(part, path + s_.SlotText(slot), out);
    }
  }

  const Universe& u_;
  Searcher& s_;
  const int min_;
  const int max_;
  const int64_t budget_;
  const bool every_guess_;
  PolishReport& report_;
  std::map<std::string, uint16_t> tree_;  // path ("-" for the root) -> guess
};

}  // namespace

std::vector<std::string> Polish(const Universe& u, Searcher& searcher,
                                const std::vector<std::string>& lines, int min_size, int max_size,
                                int64_t node_budget, bool every_guess_at_node,
                                PolishReport& report) {
  return Polisher(u, searcher, lines, min_size, max_size, node_budget, every_guess_at_node, report)
      .Run();
}

}  // namespace foundry::tools::bulls_cows_optimal
