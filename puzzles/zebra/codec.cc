#include "puzzles/zebra/codec.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/answer_text.h"

namespace foundry::puzzles::zebra {
namespace {

Status Bad(size_t clue, const std::string& what) {
  return Status::InvalidArgument(fmt::format("clue {}: {}", clue + 1, what));
}

// [category, item] → item number.
bool ParseItem(const nlohmann::json& j, const ParsedPuzzle& p, uint8_t* out) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer())
    return false;
  const auto c = j[0].get<int64_t>(), i = j[1].get<int64_t>();
  if (c < 0 || c >= static_cast<int64_t>(p.categories.size()) || i < 0 || i >= p.houses)
    return false;
  *out = static_cast<uint8_t>(c * p.houses + i);
  return true;
}

nlohmann::json ItemJson(const ParsedPuzzle& p, int item) {
  return {item / p.houses, item % p.houses};
}

std::string Ordinal(int house) {
  static const char* kNames[] = {"first", "second", "third",   "fourth",
                                 "fifth", "sixth",  "seventh", "eighth"};
  return house >= 0 && house < 8 ? kNames[house] : fmt::format("{}th", house + 1);
}

// A category or item name a player can type back (answer.h) and that keeps
// CanonicalBytes unambiguous: not empty, no space at either end, none of
// the separators ':' ',' ';' and no control character (new lines split
// answers too).
bool TypableName(std::string_view name) {
  if (name.empty() || IsSpace(name.front()) || IsSpace(name.back())) return false;
  return std::none_of(name.begin(), name.end(), [](char ch) {
    return ch == ':' || ch == ',' || ch == ';' || static_cast<unsigned char>(ch) < 0x20 ||
           ch == 0x7f;
  });
}

std::string Capitalised(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object())
    return Status::InvalidArgument("puzzle must be an object with houses, categories and clues");
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "houses" && key != "categories" && key != "clues") {
      return Status::InvalidArgument(fmt::format(
          "puzzle has unknown key '{}' (known: houses, categories, clues)", QuoteInput(key)));
    }
  }
  ParsedPuzzle p;
  const auto houses = puzzle.find("houses");
  if (houses == puzzle.end() || !houses->is_number_integer() ||
      houses->get<int64_t>() < kMinHouses || houses->get<int64_t>() > kMaxHouses) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'houses' must be an integer in {}..{}", kMinHouses, kMaxHouses));
  }
  p.houses = static_cast<int>(houses->get<int64_t>());
  const auto cats = puzzle.find("categories");
  if (cats == puzzle.end() || !cats->is_array() || cats->size() < kMinCategories ||
      cats->size() > kMaxCategories) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'categories' must be an array of {}..{} categories", kMinCategories,
                    kMaxCategories));
  }
  for (size_t c = 0; c < cats->size(); ++c) {
    const auto& j = (*cats)[c];
    const auto bad = Status::InvalidArgument(
        fmt::format("category {} must be {{\"name\": string, \"items\": {} distinct strings}}, "
                    "names distinct, not empty, without ':' ',' ';', control characters or "
                    "spaces at the ends",
                    c + 1, p.houses));
    if (!j.is_object() || j.size() != 2 || !j.contains("name") || !j["name"].is_string() ||
        !j.contains("items") || !j["items"].is_array() ||
        static_cast<int>(j["items"].size()) != p.houses) {
      return bad;
    }
    Category cat;
    cat.name = j["name"].get<std::string>();
    if (!TypableName(cat.name)) return bad;
    for (const Category& other : p.categories) {
      if (other.name == cat.name) return bad;
    }
    std::set<std::string> seen;
    for (const auto& item : j["items"]) {
      if (!item.is_string() || !TypableName(item.get_ref<const std::string&>()) ||
          !seen.insert(item.get<std::string>()).second) {
        return bad;
      }
      cat.items.push_back(item.get<std::string>());
    }
    p.categories.push_back(std::move(cat));
  }
  const auto clues = puzzle.find("clues");
  const size_t max_clues = 4u * p.houses * p.categories.size();
  if (clues == puzzle.end() || !clues->is_array() || clues->size() > max_clues) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'clues' must be an array of at most {} clues", max_clues));
  }
  for (size_t i = 0; i < clues->size(); ++i) {
    const auto& j = (*clues)[i];
    if (!j.is_object()) return Bad(i, "must be an object with type, a and b or house");
    const auto type = j.find("type");
    Clue c;
    if (type == j.end() || !type->is_string() ||
        !ClueTypeFromName(type->get<std::string>(), &c.type)) {
      return Bad(i,
                 "'type' must be one of position, not_position, same, not_same, left_of, "
                 "immediately_left_of, next_to");
    }
    const bool binary = IsBinary(c.type);
    for (const auto& [key, value] : j.items()) {
      if (key != "type" && key != "a" && key != (binary ? "b" : "house")) {
        return Bad(i, fmt::format("unknown key '{}' (known: type, a, {})", QuoteInput(key),
                                  binary ? "b" : "house"));
      }
    }
    if (!j.contains("a") || !ParseItem(j["a"], p, &c.a))
      return Bad(i, "'a' must be [category, item] in range");
    if (binary) {
      if (!j.contains("b") || !ParseItem(j["b"], p, &c.b))
        return Bad(i, "'b' must be [category, item] in range");
      if (c.a == c.b) return Bad(i, "'a' and 'b' must be different items");
      if ((c.type == ClueType::kSame || c.type == ClueType::kNotSame) &&
          c.a / p.houses == c.b / p.houses) {
        return Bad(i, "'same' and 'not_same' relate items of different categories");
      }
    } else {
      if (!j.contains("house") || !j["house"].is_number_integer() ||
          j["house"].get<int64_t>() < 0 || j["house"].get<int64_t>() >= p.houses) {
        return Bad(i, fmt::format("'house' must be an integer in 0..{}", p.houses - 1));
      }
      c.house = static_cast<int8_t>(j["house"].get<int64_t>());
    }
    p.clues.push_back(c);
  }
  return p;
}

Result<Placement> ParseSolution(const ParsedPuzzle& p, const nlohmann::json& solution) {
  const int k = static_cast<int>(p.categories.size());
  const auto bad = Status::InvalidArgument(fmt::format(
      "solution must be {{\"houses\": [{} rows, each a permutation of 0..{}]}}", k, p.houses - 1));
  if (!solution.is_object() || solution.size() != 1 || !solution.contains("houses")) return bad;
  const auto& rows = solution["houses"];
  if (!rows.is_array() || static_cast<int>(rows.size()) != k) return bad;
  Placement house_of{};
  for (int c = 0; c < k; ++c) {
    const auto& row = rows[c];
    if (!row.is_array() || static_cast<int>(row.size()) != p.houses) return bad;
    uint32_t seen = 0;
    for (int h = 0; h < p.houses; ++h) {
      if (!row[h].is_number_integer()) return bad;
      const auto item = row[h].get<int64_t>();
      if (item < 0 || item >= p.houses || (seen >> item) & 1u) return bad;
      seen |= 1u << item;
      house_of[c * p.houses + item] = static_cast<int8_t>(h);
    }
  }
  return house_of;
}

nlohmann::json PuzzleJson(const ParsedPuzzle& p) {
  nlohmann::json cats = nlohmann::json::array();
  for (const Category& c : p.categories) cats.push_back({{"name", c.name}, {"items", c.items}});
  nlohmann::json clues = nlohmann::json::array();
  for (const Clue& c : p.clues) {
    nlohmann::json j = {{"type", ClueTypeName(c.type)}, {"a", ItemJson(p, c.a)}};
    if (IsBinary(c.type)) {
      j["b"] = ItemJson(p, c.b);
    } else {
      j["house"] = c.house;
    }
    clues.push_back(std::move(j));
  }
  return {{"houses", p.houses}, {"categories", std::move(cats)}, {"clues", std::move(clues)}};
}

nlohmann::json SolutionJson(const ParsedPuzzle& p, const Placement& house_of) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t c = 0; c < p.categories.size(); ++c) {
    std::vector<int> row(p.houses, 0);
    for (int i = 0; i < p.houses; ++i) row[house_of[c * p.houses + i]] = i;
    rows.push_back(row);
  }
  return {{"houses", std::move(rows)}};
}

std::string CanonicalBytes(const ParsedPuzzle& p) {
  std::string out = fmt::format("zebra|{}|", p.houses);
  for (const Category& c : p.categories) {
    out += c.name;
    for (const std::string& item : c.items) out += "," + item;
    out += ";";
  }
  std::vector<std::array<uint8_t, 4>> keys;
  for (Clue c : p.clues) {
    if (IsSymmetric(c.type) && c.b < c.a) std::swap(c.a, c.b);
    keys.push_back({static_cast<uint8_t>(c.type), c.a, IsBinary(c.type) ? c.b : uint8_t{0},
                    static_cast<uint8_t>(IsBinary(c.type) ? 0 : c.house)});
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  out += "|";
  for (const auto& k : keys) out += fmt::format("{}:{}:{}:{};", k[0], k[1], k[2], k[3]);
  return out;
}

std::string ClueSentence(const ParsedPuzzle& p, const Clue& c) {
  const auto who = [&](int item) {
    return PersonPhrase(p.categories[item / p.houses], item % p.houses);
  };
  const std::string a = who(c.a);
  switch (c.type) {
    case ClueType::kPosition:
      return Capitalised(fmt::format("{} lives in the {} house.", a, Ordinal(c.house)));
    case ClueType::kNotPosition:
      return Capitalised(fmt::format("{} does not live in the {} house.", a, Ordinal(c.house)));
    case ClueType::kSame:
      return Capitalised(fmt::format("{} lives in the same house as {}.", a, who(c.b)));
    case ClueType::kNotSame:
      return Capitalised(fmt::format("{} does not live in the same house as {}.", a, who(c.b)));
    case ClueType::kLeftOf:
      return Capitalised(fmt::format("{} lives somewhere to the left of {}.", a, who(c.b)));
    case ClueType::kImmediatelyLeftOf:
      return Capitalised(fmt::format("{} lives directly to the left of {}.", a, who(c.b)));
    case ClueType::kNextTo:
      return Capitalised(fmt::format("{} lives next to {}.", a, who(c.b)));
  }
  return "";
}

std::string RenderText(const ParsedPuzzle& p) {
  std::string out = fmt::format(
      "There are {} houses in a row, numbered 1 to {} from left to right. In each house lives one "
      "person, "
      "and each person has exactly one of each of these:\n",
      p.houses, p.houses);
  for (const Category& c : p.categories) {
    std::string items;
    for (size_t i = 0; i < c.items.size(); ++i) items += (i ? ", " : "") + c.items[i];
    out += fmt::format("  {}: {}\n", c.name, items);
  }
  out += "Clues:\n";
  for (size_t i = 0; i < p.clues.size(); ++i) {
    out += fmt::format("{:3}. {}\n", i + 1, ClueSentence(p, p.clues[i]));
  }
  out += "Who lives where?\n";
  return out;
}

}  // namespace foundry::puzzles::zebra
