#include "puzzles/nonogram/answer.h"

#include <fmt/format.h>

#include "puzzles/answer_text.h"
#include "puzzles/nonogram/codec.h"

namespace foundry::puzzles::nonogram {
namespace {

// A well-formed example that says nothing of the answer: the same pattern
// for every puzzle of the size.
std::string Example(int width) {
  std::string a, b;
  for (int c = 0; c < width; ++c) {
    a += c % 3 == 0 ? '#' : '.';
    b += c % 4 < 2 ? '.' : '#';
  }
  return a + "/" + b + "/...";
}

std::string Expected(const ParsedPuzzle& p) {
  return fmt::format(
      "type the {} rows of {} cells, top to bottom, # for filled and . for empty, "
      "rows separated by '/' or spaces, e.g. {}",
      p.height, p.width, Example(p.width));
}

}  // namespace

std::string FormatAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "";
  auto rows = ParseSolution(*p, solution);
  if (!rows.ok()) return "";
  std::string out;
  for (const std::string& row : GridStrings(*rows, p->width)) {
    if (!out.empty()) out += ' ';
    out += row;
  }
  return out;
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, std::string_view text) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, Expected(p)));
  };
  const std::vector<std::string> pieces = SplitTrimmed(text, " \t\r\n\f\v/,;");
  if (pieces.empty()) return bad("the answer is empty");
  Rows rows(static_cast<size_t>(p.height), 0);
  int cell = 0;
  const int cells = p.width * p.height;
  for (const std::string& piece : pieces) {
    for (size_t i = 0; i < piece.size(); ++i) {
      const char ch = piece[i];
      const bool filled = ch == '#' || ch == '1';
      if (!filled && ch != '.' && ch != '-' && ch != '0') {
        const std::string where =
            cell < cells ? fmt::format("row {} column {}", cell / p.width + 1, cell % p.width + 1)
                         : "past the last cell";
        return bad(fmt::format("{} holds {}, not # or .", where, QuoteAnswer(CharAt(piece, i))));
      }
      if (cell < cells && filled)
        rows[static_cast<size_t>(cell / p.width)] |= 1ULL << (cell % p.width);
      ++cell;
    }
  }
  if (cell != cells) {
    return bad(fmt::format("the answer has {} cells, the grid {}x{} = {}", cell, p.width, p.height,
                           cells));
  }
  if (static_cast<int>(pieces.size()) == p.height) {
    for (size_t r = 0; r < pieces.size(); ++r) {
      if (static_cast<int>(pieces[r].size()) != p.width) {
        return bad(fmt::format("row {} has {} cells, not {}", r + 1, pieces[r].size(), p.width));
      }
    }
  }
  return Satisfies(p, rows);
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  if (!p.ok()) return "Type the grid row by row, # for filled and . for empty, e.g. #..#/.##.";
  std::string line = Expected(*p);
  line[0] = 'T';
  return line;
}

}  // namespace foundry::puzzles::nonogram
