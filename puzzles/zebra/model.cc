#include "puzzles/zebra/model.h"

#include <cstdlib>

#include <fmt/format.h>

namespace foundry::puzzles::zebra {
namespace {

constexpr std::string_view kTypeNames[kClueTypeCount] = {
    "position", "not_position", "same", "not_same", "left_of", "immediately_left_of", "next_to"};

struct Theme {
  std::string_view name;
  std::string_view phrase;  // {} is the item
  std::array<std::string_view, kMaxHouses> items;
};

// The theme table. The first five are the classic Einstein puzzle's, in its
// order, so that puzzle reads naturally.
constexpr Theme kThemes[kMaxCategories] = {
    {"nationality",
     "the {}",
     {"Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese", "Italian", "German",
      "Swede"}},
    {"color",
     "the person in the {} house",
     {"red", "green", "ivory", "yellow", "blue", "white", "purple", "orange"}},
    {"pet",
     "the person who keeps the {}",
     {"dog", "snails", "fox", "horse", "zebra", "cat", "parrot", "hamster"}},
    {"drink",
     "the person who drinks {}",
     {"coffee", "tea", "milk", "orange juice", "water", "lemonade", "cocoa", "beer"}},
    {"smoke",
     "the person who smokes {}",
     {"Old Gold", "Kools", "Chesterfield", "Lucky Strike", "Parliament", "Pall Mall", "Dunhill",
      "Blends"}},
    {"hobby",
     "the person who enjoys {}",
     {"chess", "painting", "gardening", "fishing", "cycling", "knitting", "reading", "dancing"}},
    {"car",
     "the person who drives a {}",
     {"Ford", "Toyota", "Volvo", "Fiat", "Tesla", "Renault", "Honda", "Skoda"}},
    {"music",
     "the person who listens to {}",
     {"jazz", "rock", "blues", "folk", "opera", "reggae", "techno", "classical"}},
};

}  // namespace

std::string_view ClueTypeName(ClueType t) { return kTypeNames[static_cast<int>(t)]; }

bool ClueTypeFromName(std::string_view name, ClueType* out) {
  for (int i = 0; i < kClueTypeCount; ++i) {
    if (kTypeNames[i] == name) {
      *out = static_cast<ClueType>(i);
      return true;
    }
  }
  return false;
}

bool Holds(const Clue& clue, const Placement& house_of) {
  const int pa = house_of[clue.a];
  const int pb = IsBinary(clue.type) ? house_of[clue.b] : 0;
  switch (clue.type) {
    case ClueType::kPosition:
      return pa == clue.house;
    case ClueType::kNotPosition:
      return pa != clue.house;
    case ClueType::kSame:
      return pa == pb;
    case ClueType::kNotSame:
      return pa != pb;
    case ClueType::kLeftOf:
      return pa < pb;
    case ClueType::kImmediatelyLeftOf:
      return pa + 1 == pb;
    case ClueType::kNextTo:
      return std::abs(pa - pb) == 1;
  }
  return false;
}

std::vector<Category> ThemedCategories(int houses, int categories) {
  std::vector<Category> out(categories);
  for (int c = 0; c < categories; ++c) {
    out[c].name = std::string(kThemes[c].name);
    for (int i = 0; i < houses; ++i) out[c].items.emplace_back(kThemes[c].items[i]);
  }
  return out;
}

std::string PersonPhrase(const Category& category, int item) {
  const std::string& name = category.items[item];
  for (const Theme& t : kThemes) {
    if (t.name == category.name) return fmt::format(fmt::runtime(t.phrase), name);
  }
  return fmt::format("the person whose {} is {}", category.name, name);
}

}  // namespace foundry::puzzles::zebra
