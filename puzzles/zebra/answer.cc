#include "puzzles/zebra/answer.h"

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/answer_text.h"
#include "puzzles/zebra/codec.h"

namespace foundry::puzzles::zebra {
namespace {

// "color: red, green, ivory": the first category, items in the puzzle's
// order (a well-formed example; it says nothing about the answer).
std::string Example(const ParsedPuzzle& p) {
  const Category& c = p.categories[0];
  return fmt::format("{}: {}", c.name, fmt::join(c.items, ", "));
}

std::string Expected(const ParsedPuzzle& p) {
  return fmt::format(
      "type each category, a colon and its items from house 1 to {} separated by commas, "
      "categories separated by ';', e.g. {}; ...",
      p.houses, Example(p));
}

// The index of the name in `names` that `typed` means, or -1. An exact
// match wins over one that ignores case and spacing.
int FindName(const std::vector<std::string>& names, std::string_view typed) {
  const std::string_view exact = Trim(typed);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == exact) return static_cast<int>(i);
  }
  const std::string folded = FoldName(typed);
  for (size_t i = 0; i < names.size(); ++i) {
    if (FoldName(names[i]) == folded) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto house_of = ParseSolution(*p, solution);
  if (!house_of.ok()) return "";
  std::vector<std::string> entries;
  for (size_t c = 0; c < p->categories.size(); ++c) {
    std::vector<std::string> in_house(p->houses);
    for (int i = 0; i < p->houses; ++i) {
      in_house[(*house_of)[c * p->houses + i]] = p->categories[c].items[i];
    }
    entries.push_back(fmt::format("{}: {}", p->categories[c].name, fmt::join(in_house, ", ")));
  }
  return fmt::format("{}", fmt::join(entries, "; "));
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, Expected(p)));
  };
  const std::vector<std::string> entries = SplitTrimmed(text, ";\n");
  if (entries.empty()) return bad("the answer is empty");

  std::vector<std::string> category_names;
  for (const Category& c : p.categories) category_names.push_back(c.name);
  std::vector<bool> given(p.categories.size(), false);
  Placement house_of{};
  for (const std::string& entry : entries) {
    const size_t colon = entry.find(':');
    if (colon == std::string::npos) return bad(fmt::format("{} has no ':'", QuoteAnswer(entry)));
    const std::string_view name = Trim(std::string_view(entry).substr(0, colon));
    const int c = FindName(category_names, name);
    if (c < 0) {
      return bad(fmt::format("there is no category '{}' (the categories: {})", QuoteInput(name),
                             fmt::join(category_names, ", ")));
    }
    if (given[c]) return bad(fmt::format("category '{}' is given twice", p.categories[c].name));
    given[c] = true;
    const Category& cat = p.categories[c];
    const std::vector<std::string> items =
        SplitTrimmed(std::string_view(entry).substr(colon + 1), ",");
    if (static_cast<int>(items.size()) != p.houses) {
      return bad(fmt::format("category '{}' lists {} items, one per house is {}", cat.name,
                             items.size(), p.houses));
    }
    std::vector<bool> used(p.houses, false);
    for (int h = 0; h < p.houses; ++h) {
      const int i = FindName(cat.items, items[h]);
      if (i < 0) {
        return bad(fmt::format("'{}' is not an item of {} (its items: {})", QuoteInput(items[h]),
                               cat.name, fmt::join(cat.items, ", ")));
      }
      if (used[i]) return bad(fmt::format("'{}' is in two houses", cat.items[i]));
      used[i] = true;
      house_of[c * p.houses + i] = static_cast<int8_t>(h);
    }
  }
  for (size_t c = 0; c < given.size(); ++c) {
    if (!given[c]) return bad(fmt::format("category '{}' is missing", p.categories[c].name));
  }
  for (const Clue& clue : p.clues) {
    if (!Holds(clue, house_of)) return false;
  }
  return true;
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok())
    return "Type each category, a colon and its items in house order, e.g. color: red, green, "
           "blue.";
  return fmt::format(
      "Type each category, a colon and its items from house 1 to {} separated by commas; "
      "separate categories by ';', e.g. {}; ...",
      p->houses, Example(*p));
}

}  // namespace foundry::puzzles::zebra
