#include "puzzles/nonogram/codec.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/json_number.h"

namespace foundry::puzzles::nonogram {
namespace {

constexpr std::string_view kExpected =
    "puzzle must be {\"width\":W,\"height\":H,\"rows\":[[3,1],...],\"columns\":[[2],...]}";

Result<std::vector<Clue>> ParseClues(const nlohmann::json& puzzle, const char* key, int count,
                                     int length) {
  if (!puzzle.contains(key)) return Status::InvalidArgument(fmt::format("puzzle has no '{}'", key));
  const nlohmann::json& v = puzzle[key];
  if (!v.is_array() || static_cast<int>(v.size()) != count) {
    return Status::InvalidArgument(
        fmt::format("puzzle '{}' must be an array of {} clues (one per line)", key, count));
  }
  std::vector<Clue> clues;
  clues.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const nlohmann::json& c = v[static_cast<size_t>(i)];
    if (!c.is_array()) {
      return Status::InvalidArgument(fmt::format(
          "puzzle '{}' line {} must be an array of run lengths ([] for none)", key, i + 1));
    }
    Clue clue;
    for (const nlohmann::json& run : c) {
      const auto n = IntInRange(run, 1, length);
      if (!n) {
        return Status::InvalidArgument(fmt::format(
            "puzzle '{}' line {}: a run must be an integer in 1..{}", key, i + 1, length));
      }
      clue.push_back(static_cast<int>(*n));
    }
    if (!ClueFits(clue, length)) {
      return Status::InvalidArgument(
          fmt::format("puzzle '{}' line {}: the runs do not fit in {} cells", key, i + 1, length));
    }
    clues.push_back(std::move(clue));
  }
  return clues;
}

std::string ClueText(const Clue& clue) {
  return clue.empty() ? "0" : fmt::format("{}", fmt::join(clue, "."));
}

}  // namespace

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object()) return Status::InvalidArgument(std::string(kExpected));
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "width" && key != "height" && key != "rows" && key != "columns") {
      return Status::InvalidArgument(fmt::format(
          "puzzle has unknown key '{}' (known: width, height, rows, columns)", QuoteInput(key)));
    }
  }
  ParsedPuzzle p;
  for (const char* key : {"width", "height"}) {
    const auto n =
        puzzle.contains(key) ? IntInRange(puzzle[key], kMinSide, kMaxSide) : std::nullopt;
    if (!n) {
      return Status::InvalidArgument(
          fmt::format("puzzle '{}' must be an integer in {}..{}", key, kMinSide, kMaxSide));
    }
    (key[0] == 'w' ? p.width : p.height) = static_cast<int>(*n);
  }
  auto rows = ParseClues(puzzle, "rows", p.height, p.width);
  if (!rows.ok()) return rows.status();
  auto columns = ParseClues(puzzle, "columns", p.width, p.height);
  if (!columns.ok()) return columns.status();
  p.rows = std::move(*rows);
  p.columns = std::move(*columns);
  return p;
}

Result<Rows> ParseSolution(const ParsedPuzzle& p, const nlohmann::json& solution) {
  if (!solution.is_object() || solution.size() != 1 || !solution.contains("grid")) {
    return Status::InvalidArgument("solution must be an object with the one key 'grid'");
  }
  const nlohmann::json& g = solution["grid"];
  if (!g.is_array() || static_cast<int>(g.size()) != p.height) {
    return Status::InvalidArgument(
        fmt::format("solution 'grid' must be an array of {} strings (the rows)", p.height));
  }
  Rows rows;
  for (int r = 0; r < p.height; ++r) {
    const nlohmann::json& s = g[static_cast<size_t>(r)];
    if (!s.is_string() || static_cast<int>(s.get_ref<const std::string&>().size()) != p.width) {
      return Status::InvalidArgument(
          fmt::format("solution 'grid' row {} must be a string of {} characters", r + 1, p.width));
    }
    const std::string& text = s.get_ref<const std::string&>();
    uint64_t row = 0;
    for (int c = 0; c < p.width; ++c) {
      const char ch = text[static_cast<size_t>(c)];
      if (ch != '#' && ch != '.') {
        return Status::InvalidArgument(fmt::format(
            "solution 'grid' row {} column {}: '#' (filled) or '.' (empty) only", r + 1, c + 1));
      }
      if (ch == '#') row |= 1ULL << c;
    }
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json PuzzleJson(const ParsedPuzzle& p) {
  return {{"width", p.width}, {"height", p.height}, {"rows", p.rows}, {"columns", p.columns}};
}

std::vector<std::string> GridStrings(const Rows& rows, int width) {
  std::vector<std::string> out;
  for (uint64_t row : rows) {
    std::string s(static_cast<size_t>(width), '.');
    for (int c = 0; c < width; ++c) {
      if ((row >> c) & 1ULL) s[static_cast<size_t>(c)] = '#';
    }
    out.push_back(std::move(s));
  }
  return out;
}

nlohmann::json SolutionJson(const Rows& rows, int width) {
  return {{"grid", GridStrings(rows, width)}};
}

std::string CanonicalBytes(const ParsedPuzzle& p) {
  std::string out = fmt::format("nonogram|{}x{}|", p.width, p.height);
  for (const auto* lines : {&p.rows, &p.columns}) {
    for (size_t i = 0; i < lines->size(); ++i) {
      if (i > 0) out += ',';
      out += ClueText((*lines)[i]);
    }
    out += '|';
  }
  return out;
}

std::string RenderText(const ParsedPuzzle& p) {
  // Each column is 3 characters wide (runs up to 40); column clues stand
  // bottom-aligned above it, row clues right-aligned to the left.
  size_t tallest = 1;
  for (const Clue& c : p.columns) tallest = std::max(tallest, c.size());
  std::vector<std::string> row_text;
  size_t widest = 1;
  for (const Clue& c : p.rows) {
    row_text.push_back(c.empty() ? "0" : fmt::format("{}", fmt::join(c, " ")));
    widest = std::max(widest, row_text.back().size());
  }
  std::string out = fmt::format("Nonogram {}x{}\n", p.width, p.height);
  for (size_t line = 0; line < tallest; ++line) {
    out += std::string(widest + 2, ' ');
    for (const Clue& c : p.columns) {
      const size_t pad = tallest - std::max<size_t>(c.size(), 1);
      if (line < pad)
        out += "   ";
      else if (c.empty())
        out += "  0";
      else
        out += fmt::format("{:>3}", c[line - pad]);
    }
    out += '\n';
  }
  for (int r = 0; r < p.height; ++r) {
    out += fmt::format("{:>{}} |", row_text[static_cast<size_t>(r)], widest);
    for (int c = 0; c < p.width; ++c) out += "  .";
    out += '\n';
  }
  return out;
}

}  // namespace foundry::puzzles::nonogram
