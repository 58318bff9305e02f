#include "puzzles/sudoku/svg.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/sudoku/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::sudoku {
namespace {

constexpr double kMargin = 20;
constexpr double kTop = 56;  // below the title

double CellSize(int n) { return n <= 9 ? 44 : n <= 12 ? 36 : 30; }

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;
  const int n = p.shape.n();
  const double cell = CellSize(n);
  const double side = n * cell;

  Grid filled;
  std::string note;
  if (solution != nullptr) {
    auto s = ParseSolution(p.shape, *solution);
    if (s.ok())
      filled = std::move(*s);
    else
      note = "invalid solution: " + s.status().message();
  }

  svg::Document doc(
      fmt::format("Sudoku {}x{} ({} boxes), {} clues", n, n, p.shape.Name(), CountClues(p.grid)));
  doc.Text(kMargin, 32, fmt::format("Sudoku {}x{}, {} clues", n, n, CountClues(p.grid)),
           {.size = 18, .bold = true});
  const double x0 = kMargin, y0 = kTop;
  doc.Rect(x0, y0, side, side, "#ffffff", "none");
  // Shade every other box so the boxes read at a glance.
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const int box = p.shape.BoxOf(r, c);
      const int boxes_per_row = n / p.shape.box_cols;
      if ((box / boxes_per_row + box % boxes_per_row) % 2 == 1) {
        doc.Rect(x0 + c * cell, y0 + r * cell, cell, cell, "#f3f6fa");
      }
    }
  }
  const double font = cell * 0.55;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const int i = r * n + c;
      const double cx = x0 + (c + 0.5) * cell, cy = y0 + (r + 0.5) * cell;
      if (p.grid[i] != 0) {
        doc.Text(cx, cy, std::string(1, DigitChar(p.grid[i])),
                 {.size = font,
                  .fill = "#111",
                  .anchor = "middle",
                  .bold = true,
                  .centered_vertically = true});
      } else if (!filled.empty()) {
        doc.Text(
            cx, cy, std::string(1, DigitChar(filled[i])),
            {.size = font, .fill = "#1565c0", .anchor = "middle", .centered_vertically = true});
      }
    }
  }
  // Thin cell lines first, then the thick box borders over them.
  for (const bool thick : {false, true}) {
    for (int k = 0; k <= n; ++k) {
      if ((k % p.shape.box_rows == 0) == thick) {
        doc.Line(x0, y0 + k * cell, x0 + side, y0 + k * cell, thick ? "#111" : "#9e9e9e",
                 thick ? 3 : 1, "stroke-linecap=\"square\"");
      }
      if ((k % p.shape.box_cols == 0) == thick) {
        doc.Line(x0 + k * cell, y0, x0 + k * cell, y0 + side, thick ? "#111" : "#9e9e9e",
                 thick ? 3 : 1, "stroke-linecap=\"square\"");
      }
    }
  }
  double y = y0 + side + 26;
  doc.Text(kMargin, y,
           fmt::format("Each row, column and {}x{} box holds {}..{} once.", p.shape.box_rows,
                       p.shape.box_cols, DigitChar(1), DigitChar(n)),
           {.size = 13, .fill = "#555"});
  y += 22;
  const double width =
      std::max(kMargin * 2 + side, kMargin * 2 + svg::TextWidth(std::string(44, 'x'), 13));
  if (!note.empty()) {
    y = doc.Lines(kMargin, y, svg::Wrap(note, static_cast<size_t>((width - 2 * kMargin) / 7.8)), 18,
                  {.size = 13, .fill = "#b00020"});
  }
  return doc.Finish(width, y);
}

}  // namespace foundry::puzzles::sudoku
