// Zebra JSON shapes (docs/reference.md), canonical bytes and plain text.
//   puzzle   {"houses":5,
//             "categories":[{"name":"color","items":["red",...]},...],
//             "clues":[{"type":"same","a":[0,2],"b":[3,1]},
//                      {"type":"position","a":[1,4],"house":0}]}
//   solution {"houses":[[item in house 0, house 1, ...] per category]}
// Items are [category, item], houses 0-based from the left.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/zebra/model.h"

namespace foundry::puzzles::zebra {

struct ParsedPuzzle {
  int houses = 0;
  std::vector<Category> categories;
  std::vector<Clue> clues;  // item numbers: category * houses + item
};

// Errors: InvalidArgument naming the key, clue or item at fault. Beyond the
// shapes: houses and categories within their ranges, every category with
// `houses` distinct item names, same/not_same across categories, a != b,
// house within range, at most 4 * houses * categories clues.
Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle);
// Every category row a permutation of 0..houses-1.
Result<Placement> ParseSolution(const ParsedPuzzle& p, const nlohmann::json& solution);

nlohmann::json PuzzleJson(const ParsedPuzzle& p);
nlohmann::json SolutionJson(const ParsedPuzzle& p, const Placement& house_of);

// "zebra|H|names...|" + the clues, each with a, b in a fixed order for the
// symmetric types, sorted: the same bytes whatever the clue order.
std::string CanonicalBytes(const ParsedPuzzle& p);

// "The Englishman lives in the red house." style sentence.
std::string ClueSentence(const ParsedPuzzle& p, const Clue& c);
// The setting, the categories and items, the numbered clues.
std::string RenderText(const ParsedPuzzle& p);

}  // namespace foundry::puzzles::zebra
