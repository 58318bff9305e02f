// Zebra (Einstein) puzzles: the model shared by the solver, the generator,
// the verifier and the codec.
//
// `houses` H houses in a row (house 0 leftmost) and `categories` K
// categories (colour, nationality, ...), each with H items; every house holds
// exactly one item of every category. An item is (category, index) and, in
// the solvers, the number category * H + index. A solution places every item
// in a house; within a category that is a permutation.
//
// Thread safety: values, and immutable tables.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace foundry::puzzles::zebra {

inline constexpr int kMinHouses = 3, kMaxHouses = 8;
inline constexpr int kMinCategories = 2, kMaxCategories = 8;
inline constexpr int kMaxItems = kMaxHouses * kMaxCategories;

// The clue types. Values appear in canonical bytes: never renumber.
enum class ClueType : uint8_t {
  kPosition = 0,           // a is in house `house`
  kNotPosition = 1,        // a is not in house `house`
  kSame = 2,               // a and b are in the same house (different categories)
  kNotSame = 3,            // a and b are in different houses (different categories)
  kLeftOf = 4,             // a is somewhere left of b
  kImmediatelyLeftOf = 5,  // a is in the house just left of b's
  kNextTo = 6,             // a and b are in neighbouring houses
};
inline constexpr int kClueTypeCount = 7;

// "position", "not_position", "same", ... (the JSON "type").
std::string_view ClueTypeName(ClueType t);
// The type called `name`; false when there is none.
bool ClueTypeFromName(std::string_view name, ClueType* out);
// True for the types that relate two items (all but position, not_position).
inline bool IsBinary(ClueType t) { return t != ClueType::kPosition && t != ClueType::kNotPosition; }
// True for the types where a and b can be swapped (same, not_same, next_to).
inline bool IsSymmetric(ClueType t) {
  return t == ClueType::kSame || t == ClueType::kNotSame || t == ClueType::kNextTo;
}

// One clue over item numbers (category * houses + index).
struct Clue {
  ClueType type = ClueType::kPosition;
  uint8_t a = 0;
  uint8_t b = 0;      // binary types only
  int8_t house = -1;  // position and not_position only
  friend bool operator==(const Clue&, const Clue&) = default;
};

// A solution: house_of[item number].
using Placement = std::array<int8_t, kMaxItems>;

// Whether `clue` holds when items sit in `house_of`.
bool Holds(const Clue& clue, const Placement& house_of);

struct Category {
  std::string name;
  std::vector<std::string> items;
};

// The themed names used by generated puzzles: the first `categories`
// categories of the theme table, each with its first `houses` items.
std::vector<Category> ThemedCategories(int houses, int categories);

// How to name a person by an item of a category, e.g. "the person who keeps
// the {}" for "pet"; a generic pattern for a category the table lacks.
std::string PersonPhrase(const Category& category, int item);

}  // namespace foundry::puzzles::zebra
