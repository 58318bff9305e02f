#include "puzzles/zebra/svg.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "puzzles/svg.h"
#include "puzzles/zebra/codec.h"

namespace foundry::puzzles::zebra {
namespace {

constexpr double kMargin = 20;
constexpr double kCellH = 30;
constexpr double kFont = 13;
constexpr size_t kWrap = 92;  // characters per line of clue text
constexpr double kLine = 19;

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;
  const int k = static_cast<int>(p.categories.size());

  std::optional<Placement> house_of;
  std::string note;
  if (solution != nullptr) {
    auto s = ParseSolution(p, *solution);
    if (s.ok())
      house_of = *s;
    else
      note = "invalid solution: " + s.status().message();
  }

  // Column widths from the longest names.
  double label_w = svg::TextWidth("House", kFont);
  double cell_w = 70;
  for (const Category& c : p.categories) {
    label_w = std::max(label_w, svg::TextWidth(c.name, kFont));
    for (const std::string& item : c.items) cell_w = std::max(cell_w, svg::TextWidth(item, kFont));
  }
  label_w += 20;
  cell_w += 16;
  const double table_w = label_w + p.houses * cell_w;
  const double width =
      std::max(kMargin * 2 + table_w, kMargin * 2 + svg::TextWidth(std::string(kWrap, 'x'), kFont));

  svg::Document doc(
      fmt::format("Zebra puzzle: {} houses, {} categories, {} clues", p.houses, k, p.clues.size()));
  doc.Text(kMargin, 32, "Zebra puzzle", {.size = 18, .bold = true});
  double y = doc.Lines(kMargin, 58,
                       svg::Wrap(fmt::format("{} houses in a row, numbered 1 to {} from left to "
                                             "right; each holds one item of every category.",
                                             p.houses, p.houses),
                                 kWrap),
                       kLine, {.size = kFont});
  y += 4;

  // The table: a header row of houses, then one row per category.
  const double x0 = kMargin;
  doc.Rect(x0, y, table_w, kCellH, "#eceff1", "none");
  doc.Text(x0 + 8, y + kCellH / 2, "House",
           {.size = kFont, .fill = "#555", .bold = true, .centered_vertically = true});
  for (int h = 0; h < p.houses; ++h) {
    doc.Text(x0 + label_w + (h + 0.5) * cell_w, y + kCellH / 2, std::to_string(h + 1),
             {.size = kFont, .anchor = "middle", .bold = true, .centered_vertically = true});
  }
  for (int c = 0; c < k; ++c) {
    const double ry = y + (c + 1) * kCellH;
    if (c % 2 == 1) doc.Rect(x0, ry, table_w, kCellH, "#f7f9fc", "none");
    doc.Text(x0 + 8, ry + kCellH / 2, p.categories[c].name,
             {.size = kFont, .bold = true, .centered_vertically = true});
    if (!house_of) continue;
    for (int i = 0; i < p.houses; ++i) {
      const int h = (*house_of)[c * p.houses + i];
      doc.Text(x0 + label_w + (h + 0.5) * cell_w, ry + kCellH / 2, p.categories[c].items[i],
               {.size = kFont, .fill = "#1565c0", .anchor = "middle", .centered_vertically = true});
    }
  }
  const double bottom = y + (k + 1) * kCellH;
  for (int r = 0; r <= k + 1; ++r) {
    doc.Line(x0, y + r * kCellH, x0 + table_w, y + r * kCellH, r == 1 ? "#455a64" : "#b0bec5",
             r == 1 ? 1.5 : 1);
  }
  for (int h = 0; h <= p.houses; ++h) {
    const double x = x0 + label_w + h * cell_w;
    doc.Line(x, y, x, bottom, h == 0 ? "#455a64" : "#b0bec5", h == 0 ? 1.5 : 1);
  }
  doc.Rect(x0, y, table_w, bottom - y, "none", "#455a64", 1.5);
  y = bottom + 24;
  if (!note.empty())
    y = doc.Lines(kMargin, y, svg::Wrap(note, kWrap), kLine, {.size = kFont, .fill = "#b00020"}) +
        6;

  // The items, then the clues.
  for (const Category& c : p.categories) {
    y = doc.Lines(kMargin, y,
                  svg::Wrap(fmt::format("{}: {}", c.name, fmt::join(c.items, ", ")), kWrap), kLine,
                  {.size = kFont, .fill = "#555"});
  }
  y += 10;
  doc.Text(kMargin, y, "Clues", {.size = 15, .bold = true});
  y += kLine + 4;
  for (size_t i = 0; i < p.clues.size(); ++i) {
    doc.Text(kMargin + 24, y, fmt::format("{}.", i + 1),
             {.size = kFont, .fill = "#555", .anchor = "end"});
    y = doc.Lines(kMargin + 30, y, svg::Wrap(ClueSentence(p, p.clues[i]), kWrap - 4), kLine,
                  {.size = kFont});
  }
  return doc.Finish(width, y + 4);
}

}  // namespace foundry::puzzles::zebra
