#include "puzzles/bulls_cows/optimal_tree.h"

#include <cassert>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace foundry::puzzles::bulls_cows {
namespace {

// The generated files are raw string literals (with a comment above).
constexpr std::string_view kTree4LeadingZero =
#include "puzzles/bulls_cows/optimal_tree_4.inc"
    ;
constexpr std::string_view kTree4NoLeadingZero =
#include "puzzles/bulls_cows/optimal_tree_4_no_zero.inc"
    ;

struct Tree {
  std::vector<TreeEntry> entries;
  std::unordered_map<std::string, uint32_t> guess_of;  // path -> code index
};

Tree Parse(const Universe& u, std::string_view text) {
  Tree tree;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    const size_t space = line.find(' ');
    TreeEntry e{std::string(line.substr(0, space)), std::string(line.substr(space + 1))};
    const int64_t index = u.Find(e.guess);
    assert(index >= 0 && "the generator writes valid codes");
    tree.guess_of.emplace(e.path, static_cast<uint32_t>(index));
    tree.entries.push_back(std::move(e));
  }
  return tree;
}

const Tree& TreeFor(const Universe& u) {
  static const Tree kNone;
  if (u.length() != 4) return kNone;
  if (u.leading_zero()) {
    static const Tree tree = Parse(u, kTree4LeadingZero);
    return tree;
  }
  static const Tree tree = Parse(u, kTree4NoLeadingZero);
  return tree;
}

}  // namespace

const std::vector<TreeEntry>& OptimalTreeEntries(const Universe& u) { return TreeFor(u).entries; }

std::optional<uint32_t> OptimalTreeGuess(const Universe& u, std::span<const uint32_t> candidates,
                                         int guesses_made) {
  const Tree& tree = TreeFor(u);
  if (tree.entries.empty() || candidates.empty()) return std::nullopt;
  const auto guess_at = [&](const std::string& path) -> std::optional<uint32_t> {
    const auto it = tree.guess_of.find(path.empty() ? "-" : path);
    if (it == tree.guess_of.end()) return std::nullopt;
    return it->second;
  };
  // Every candidate answered the tree's guesses alike, so any one of them
  // retraces the path; the others must agree with it.
  std::string path;
  std::vector<std::pair<uint32_t, int>> steps;
  for (int k = 0; k < guesses_made; ++k) {
    const std::optional<uint32_t> g = guess_at(path);
    if (!g) return std::nullopt;
    const int score = u.Score(*g, candidates.front());
    if (score == u.win_score()) return std::nullopt;
    steps.emplace_back(*g, score);
    path += static_cast<char>('0' + BullsOf(score));
    path += static_cast<char>('0' + CowsOf(score));
  }
  for (uint32_t c : candidates) {
    for (const auto& [g, score] : steps) {
      if (u.Score(g, c) != score) return std::nullopt;
    }
  }
  return guess_at(path);
}

}  // namespace foundry::puzzles::bulls_cows
