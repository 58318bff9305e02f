#include "puzzles/alignment/codec.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/answer_text.h"
#include "puzzles/json_number.h"

namespace foundry::puzzles::alignment {
namespace {

bool AsInt(const nlohmann::json& v, int64_t lo, int64_t hi, int* out) {
  const auto x = IntInRange(v, lo, hi);
  if (x) *out = static_cast<int>(*x);
  return x.has_value();
}

int ColorOf(char ch) {
  const auto at = kColorLetters.find(ch);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

constexpr const char* kKeys[] = {"height",       "columns",    "guides",
                                 "row_bonus",    "base_score", "target_score",
                                 "greedy_score", "best_score", "max_gaps"};

}  // namespace

Result<ParsedPuzzle> ParsePuzzle(const nlohmann::json& puzzle) {
  const auto bad = [](const std::string& what) {
    return Status::InvalidArgument("puzzle " + what);
  };
  if (!puzzle.is_object()) return bad("must be an object with height, columns and guides");
  for (const auto& [key, value] : puzzle.items()) {
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      return bad(
          fmt::format("has unknown key '{}' (known: {})", QuoteInput(key), fmt::join(kKeys, ", ")));
    }
  }
  for (const char* key : kKeys) {
    if (!puzzle.contains(key) && std::string_view(key) != "max_gaps") {
      return bad(fmt::format("is missing '{}'", key));
    }
  }
  ParsedPuzzle p;
  Board& b = p.board;
  if (!AsInt(puzzle["height"], kMinHeight, kMaxHeight, &b.height)) {
    return bad(fmt::format("'height' must be an integer in {}..{}", kMinHeight, kMaxHeight));
  }
  const auto& columns = puzzle["columns"];
  if (!columns.is_array() || columns.size() < kMinColumns || columns.size() > kMaxColumns) {
    return bad(
        fmt::format("'columns' must be an array of {}..{} strings", kMinColumns, kMaxColumns));
  }
  int bricks = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    const auto& col = columns[c];
    if (!col.is_string() || col.get_ref<const std::string&>().empty() ||
        col.get_ref<const std::string&>().size() > static_cast<size_t>(b.height)) {
      return bad(fmt::format("'columns'[{}] must be a string of 1..height letters", c));
    }
    std::vector<uint8_t> bricks_of;
    const std::string& letters = col.get_ref<const std::string&>();
    for (size_t i = 0; i < letters.size(); ++i) {
      const int color = ColorOf(letters[i]);
      if (color < 0) {
        return bad(
            fmt::format("'columns'[{}] has letter '{}' (allowed: ACGT)", c, CharAt(letters, i)));
      }
      bricks_of.push_back(static_cast<uint8_t>(color));
    }
    bricks += static_cast<int>(bricks_of.size());
    b.columns.push_back(std::move(bricks_of));
  }
  const auto& guides = puzzle["guides"];
  if (!guides.is_array() || guides.size() != static_cast<size_t>(b.height)) {
    return bad("'guides' must be an array of one string per row");
  }
  for (size_t r = 0; r < guides.size(); ++r) {
    if (!guides[r].is_string() || guides[r].get_ref<const std::string&>().empty()) {
      return bad(fmt::format("'guides'[{}] must be a non-empty string of ACGT letters", r));
    }
    uint8_t mask = 0;
    const std::string& letters = guides[r].get_ref<const std::string&>();
    for (size_t i = 0; i < letters.size(); ++i) {
      const int color = ColorOf(letters[i]);
      if (color < 0 || ((mask >> color) & 1)) {
        return bad(fmt::format("'guides'[{}] has a repeated or unknown letter '{}'", r,
                               CharAt(letters, i)));
      }
      mask |= static_cast<uint8_t>(1u << color);
    }
    b.guides.push_back(mask);
  }
  if (!AsInt(puzzle["row_bonus"], 1, kMaxRowBonus, &b.row_bonus)) {
    return bad(fmt::format("'row_bonus' must be an integer in 1..{}", kMaxRowBonus));
  }
  const int room = b.height * b.width() - bricks;
  if (puzzle.contains("max_gaps") && !AsInt(puzzle["max_gaps"], 0, room, &b.max_gaps)) {
    return bad(fmt::format("'max_gaps' must be an integer in 0..{}", room));
  }
  const int top = kMaxRowBonus * kMaxColumns * kMaxHeight;
  if (!AsInt(puzzle["base_score"], 0, top, &p.base_score))
    return bad("'base_score' must be an integer");
  if (!AsInt(puzzle["target_score"], 0, top, &p.target_score)) {
    return bad("'target_score' must be an integer");
  }
  if (!AsInt(puzzle["greedy_score"], 0, top, &p.greedy_score)) {
    return bad("'greedy_score' must be an integer");
  }
  if (!AsInt(puzzle["best_score"], 0, top, &p.best_score))
    return bad("'best_score' must be an integer");
  return p;
}

Result<std::pair<Layout, int>> ParseSolution(const nlohmann::json& solution, const Board& board) {
  const auto bad = [](const std::string& what) {
    return Status::InvalidArgument("solution " + what);
  };
  if (!solution.is_object() || solution.size() != 2 || !solution.contains("layout") ||
      !solution.contains("score")) {
    return bad("must be an object {\"layout\": [...], \"score\": N}");
  }
  const auto& layout = solution["layout"];
  if (!layout.is_array() || layout.size() != board.columns.size()) {
    return bad(fmt::format("'layout' must be an array of {} strings, one per column",
                           board.columns.size()));
  }
  std::pair<Layout, int> out;
  for (size_t c = 0; c < layout.size(); ++c) {
    if (!layout[c].is_string()) return bad(fmt::format("'layout'[{}] must be a string", c));
    std::vector<int8_t> cells;
    const std::string& letters = layout[c].get_ref<const std::string&>();
    for (size_t i = 0; i < letters.size(); ++i) {
      const char ch = letters[i];
      const int color = ColorOf(ch);
      if (color < 0 && ch != kGapLetter) {
        return bad(fmt::format("'layout'[{}] has letter '{}' (allowed: ACGT and -)", c,
                               CharAt(letters, i)));
      }
      cells.push_back(static_cast<int8_t>(color < 0 ? kGap : color));
    }
    out.first.push_back(std::move(cells));
  }
  if (!AsInt(solution["score"], 0, kMaxRowBonus * kMaxColumns * kMaxHeight, &out.second)) {
    return bad("'score' must be a non-negative integer");
  }
  return out;
}

nlohmann::json PuzzleJson(const Board& b, const Analysis& a) {
  std::vector<std::string> guides;
  for (uint8_t g : b.guides) guides.push_back(GuideString(g));
  nlohmann::json j = {{"height", b.height},
                      {"columns", LayoutStrings(BaseLayout(b))},
                      {"guides", guides},
                      {"row_bonus", b.row_bonus},
                      {"base_score", a.greedy.base()},
                      {"target_score", a.target},
                      {"greedy_score", a.greedy.score()},
                      {"best_score", a.best.score}};
  if (b.max_gaps > 0) j["max_gaps"] = b.max_gaps;
  return j;
}

std::string CanonicalBytes(const Board& b) {
  std::vector<std::string> guides, columns = LayoutStrings(BaseLayout(b));
  for (uint8_t g : b.guides) guides.push_back(GuideString(g));
  std::sort(columns.begin(), columns.end());
  return fmt::format("{}|{}|{}|{}|{}", b.height, b.row_bonus, b.max_gaps, fmt::join(guides, ","),
                     fmt::join(columns, ","));
}

std::string RenderText(const ParsedPuzzle& p) {
  const Board& b = p.board;
  std::string text = fmt::format(
      "Align {} columns of coloured bricks in {} rows: insert gaps (each pushes the bricks "
      "below it down one row) so that bricks match their row's guide.\n",
      b.width(), b.height);
  text += fmt::format(
      "A row scores one point per matching brick, times {} when every column matches.{}\n",
      b.row_bonus, b.max_gaps > 0 ? fmt::format(" At most {} gaps.", b.max_gaps) : "");
  for (int r = 0; r < b.height; ++r) {
    std::string row;
    for (const auto& col : b.columns)
      row += r < static_cast<int>(col.size()) ? kColorLetters[col[r]] : '.';
    text += fmt::format("{:>2} {}  guide {}\n", r, row, GuideString(b.guides[r]));
  }
  text += fmt::format("Score now {}; reach {} (the greedy reaches {}, the best known is {}).",
                      p.base_score, p.target_score, p.greedy_score, p.best_score);
  return text;
}

}  // namespace foundry::puzzles::alignment
