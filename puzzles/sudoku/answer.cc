#include "puzzles/sudoku/answer.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/answer_text.h"
#include "puzzles/sudoku/codec.h"

namespace foundry::puzzles::sudoku {
namespace {

// The grid's rows joined by '/'.
std::string Rows(const Shape& shape, const Grid& grid) {
  const std::string flat = GridToString(grid);
  std::string out;
  for (int r = 0; r < shape.n(); ++r) {
    if (r > 0) out += '/';
    out += flat.substr(static_cast<size_t>(r * shape.n()), static_cast<size_t>(shape.n()));
  }
  return out;
}

// "123456789/456789123/...": a well-formed example, not a solution.
std::string Example(const Shape& shape) {
  const int n = shape.n();
  std::string row;
  for (int v = 1; v <= n; ++v) row += DigitChar(v);
  return fmt::format("{}/{}/...", row,
                     row.substr(static_cast<size_t>(shape.box_cols)) +
                         row.substr(0, static_cast<size_t>(shape.box_cols)));
}

std::string Expected(const Shape& shape) {
  const int n = shape.n();
  return fmt::format("type the {} rows of {} digits{}, top to bottom, separated by '/', e.g. {}", n,
                     n, n > 9 ? fmt::format(" (A..{} for 10..{})", DigitChar(n), n) : "",
                     Example(shape));
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto s = ParseSolution(p->shape, solution);
  return s.ok() ? Rows(p->shape, *s) : "";
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const Shape& shape = parsed->shape;
  const int n = shape.n();
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, Expected(shape)));
  };
  const std::string typed = WithoutSpaces(text);
  if (typed.empty()) return bad("the answer is empty");

  const bool slashed = typed.find('/') != std::string::npos;
  if (slashed) {
    const std::vector<std::string> rows = SplitTrimmed(typed, "/");
    if (static_cast<int>(rows.size()) != n) {
      return bad(fmt::format("the answer has {} rows, the grid {}", rows.size(), n));
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      if (CharCount(rows[r]) != static_cast<size_t>(n)) {
        return bad(fmt::format("row {} has {} symbols, not {}", r + 1, CharCount(rows[r]), n));
      }
    }
  }
  Grid grid;
  for (size_t i = 0; i < typed.size(); ++i) {
    const char ch = typed[i];
    if (ch == '/') continue;
    const int cell = static_cast<int>(grid.size());
    int v = -1;
    if (ch >= '1' && ch <= '9')
      v = ch - '0';
    else if (ch >= 'A' && ch <= 'Z')
      v = 10 + (ch - 'A');
    else if (ch >= 'a' && ch <= 'z')
      v = 10 + (ch - 'a');
    if (v < 1 || v > n) {
      return bad(fmt::format("row {} column {} holds '{}', not a digit 1..{}", cell / n + 1,
                             cell % n + 1, CharAt(typed, i), DigitChar(n)));
    }
    if (cell >= shape.cells()) break;  // too many: reported below
    grid.push_back(static_cast<uint8_t>(v));
  }
  const size_t symbols =
      typed.size() - static_cast<size_t>(std::count(typed.begin(), typed.end(), '/'));
  if (symbols != static_cast<size_t>(shape.cells())) {
    return bad(fmt::format("the answer has {} digits, the grid {} cells", symbols, shape.cells()));
  }
  if (!IsCompleteSolution(shape, grid)) return false;
  for (int i = 0; i < shape.cells(); ++i) {
    if (parsed->grid[i] != 0 && parsed->grid[i] != grid[i]) return false;
  }
  return true;
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  const Shape shape = p.ok() ? p->shape : Shape{};
  std::string line = Expected(shape);  // ends with the example's "..."
  line[0] = 'T';
  return line;
}

}  // namespace foundry::puzzles::sudoku
