#include "puzzles/nonogram/svg.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/nonogram/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::nonogram {
namespace {

constexpr double kMargin = 16;
constexpr double kTitle = 40;  // the title's band

double CellSize(int side) { return side <= 10 ? 28 : side <= 20 ? 22 : 16; }

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;
  const double cell = CellSize(std::max(p.width, p.height));
  const double font = cell * 0.5;
  Rows filled;
  std::string note;
  if (solution != nullptr) {
    auto s = ParseSolution(p, *solution);
    if (s.ok())
      filled = std::move(*s);
    else
      note = "invalid solution: " + s.status().message();
  }
  // Room for the longest clue: row clues side by side, column clues stacked.
  size_t row_runs = 1, column_runs = 1;
  for (const Clue& c : p.rows) row_runs = std::max(row_runs, c.size());
  for (const Clue& c : p.columns) column_runs = std::max(column_runs, c.size());
  const double step = font * 1.3;  // one clue number's slot
  const double x0 = kMargin + row_runs * step + 6;
  const double y0 = kTitle + column_runs * step + 6;
  const double gw = p.width * cell, gh = p.height * cell;

  svg::Document doc(fmt::format("Nonogram {}x{}", p.width, p.height));
  doc.Text(kMargin, 28, fmt::format("Nonogram {}x{}", p.width, p.height),
           {.size = 18, .bold = true});
  const svg::TextStyle number{
      .size = font, .fill = "#222", .anchor = "middle", .centered_vertically = true};
  for (int c = 0; c < p.width; ++c) {
    const Clue& clue = p.columns[static_cast<size_t>(c)];
    const std::vector<int> shown = clue.empty() ? std::vector<int>{0} : clue;
    const double x = x0 + (c + 0.5) * cell;
    if (c % 2 == 1) doc.Rect(x0 + c * cell, kTitle, cell, y0 - kTitle, "#f1f4f8");
    for (size_t i = 0; i < shown.size(); ++i) {
      doc.Text(x, y0 - 6 - (shown.size() - i - 0.5) * step, std::to_string(shown[i]), number);
    }
  }
  for (int r = 0; r < p.height; ++r) {
    const Clue& clue = p.rows[static_cast<size_t>(r)];
    const std::vector<int> shown = clue.empty() ? std::vector<int>{0} : clue;
    const double y = y0 + (r + 0.5) * cell;
    if (r % 2 == 1) doc.Rect(kMargin, y0 + r * cell, x0 - kMargin, cell, "#f1f4f8");
    for (size_t i = 0; i < shown.size(); ++i) {
      doc.Text(x0 - 6 - (shown.size() - i - 0.5) * step, y, std::to_string(shown[i]), number);
    }
  }
  doc.Rect(x0, y0, gw, gh, "#ffffff");
  for (size_t r = 0; r < filled.size(); ++r) {
    for (int c = 0; c < p.width; ++c) {
      if ((filled[r] >> c) & 1ULL) doc.Rect(x0 + c * cell, y0 + r * cell, cell, cell, "#263238");
    }
  }
  // Thin cell lines, a thicker one every five cells (how players count).
  for (int k = 0; k <= p.height; ++k) {
    const bool thick = k % 5 == 0 || k == p.height;
    doc.Line(x0, y0 + k * cell, x0 + gw, y0 + k * cell, thick ? "#111" : "#9e9e9e", thick ? 2 : 1);
  }
  for (int k = 0; k <= p.width; ++k) {
    const bool thick = k % 5 == 0 || k == p.width;
    doc.Line(x0 + k * cell, y0, x0 + k * cell, y0 + gh, thick ? "#111" : "#9e9e9e", thick ? 2 : 1);
  }
  double y = y0 + gh + 24;
  doc.Text(kMargin, y, "Fill the cells so each row and column shows its runs, in order.",
           {.size = 13, .fill = "#555"});
  y += 20;
  const double width =
      std::max(x0 + gw + kMargin, kMargin * 2 + svg::TextWidth(std::string(62, 'x'), 13));
  if (!note.empty()) {
    y = doc.Lines(kMargin, y, svg::Wrap(note, static_cast<size_t>((width - 2 * kMargin) / 7.8)), 18,
                  {.size = 13, .fill = "#b00020"});
  }
  return doc.Finish(width, y);
}

}  // namespace foundry::puzzles::nonogram
