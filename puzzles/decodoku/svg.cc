#include "puzzles/decodoku/svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "puzzles/decodoku/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::decodoku {
namespace {

constexpr double kMargin = 20;
constexpr double kCell = 42;
// Pastel tints for clusters, by id modulo the table.
constexpr std::string_view kTints[] = {"#ffe0b2", "#c8e6c9", "#bbdefb", "#f8bbd0", "#d1c4e9",
                                       "#fff9c4", "#b2dfdb", "#ffccbc", "#dcedc8", "#cfd8dc"};

// The cluster's letter in the text form: a.. for 1..26, '*' above.
std::string ClusterLetter(int id) {
  return std::string(1, id <= 26 ? static_cast<char>('a' + id - 1) : '*');
}

// An arrow from the middle of square (x1, y1) toward (x2, y2), labelled k.
void Arrow(svg::Document& doc, double x0, double y0, const Move& m, int k) {
  const double ax = x0 + (m.x1 + 0.5) * kCell, ay = y0 + (m.y1 + 0.5) * kCell;
  const double bx = x0 + (m.x2 + 0.5) * kCell, by = y0 + (m.y2 + 0.5) * kCell;
  const double dx = bx - ax, dy = by - ay;
  const double len = std::hypot(dx, dy);
  if (len == 0) return;
  const double ux = dx / len, uy = dy / len;
  // From beside the source's number across the border to beside the
  // target's, off the centre line so the numbers stay readable.
  const double off = 9;  // sideways
  const double sx = ax + ux * 4 + uy * off, sy = ay + uy * 4 - ux * off;
  const double tx = bx - ux * 14 + uy * off, ty = by - uy * 14 - ux * off;
  doc.Line(sx, sy, tx, ty, "#c62828", 2.5, "stroke-opacity=\"0.85\"");
  const double hx = tx + ux * 8, hy = ty + uy * 8;  // the head's tip
  doc.Path(
      fmt::format("M {} {} L {} {} L {} {} Z", svg::Num(hx), svg::Num(hy), svg::Num(tx - uy * 5),
                  svg::Num(ty + ux * 5), svg::Num(tx + uy * 5), svg::Num(ty - ux * 5)),
      "#c62828", "none", 1, "fill-opacity=\"0.85\"");
  const double lx = (sx + tx) / 2 + uy * 9, ly = (sy + ty) / 2 - ux * 9;  // the label, outside
  doc.Circle(lx, ly, 7, "#ffffff", "#c62828", 1);
  doc.Text(lx, ly, std::to_string(k),
           {.size = 9,
            .fill = "#c62828",
            .anchor = "middle",
            .bold = true,
            .centered_vertically = true});
}

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const Grid& g = *parsed;
  const int n = g.size;

  std::vector<Move> moves;
  int par = -1;
  std::string note;
  if (solution != nullptr) {
    auto s = ParseSolution(*solution);
    if (s.ok()) {
      moves = s->first;
      par = s->second;
    } else {
      note = "invalid solution: " + s.status().message();
    }
  }

  svg::Document doc(fmt::format("Decodoku: {}x{} grid, {} numbers", n, n, g.NonZero()));
  doc.Text(kMargin, 32, "Decodoku", {.size = 18, .bold = true});
  double y = doc.Lines(kMargin, 56,
                       svg::Wrap("Clear the grid: move a number to a neighbouring square, where it "
                                 "is added mod 10 (a sum of 10 vanishes). Numbers of one cluster "
                                 "(one tint) sum to 0 mod 10.",
                                 64),
                       18, {.size = 13});
  const double x0 = kMargin + 20, y0 = y + 20;
  const svg::TextStyle axis{
      .size = 11, .fill = "#555", .anchor = "middle", .centered_vertically = true};
  for (int k = 0; k < n; ++k) {
    doc.Text(x0 + (k + 0.5) * kCell, y0 - 10, std::to_string(k), axis);
    doc.Text(x0 - 12, y0 + (k + 0.5) * kCell, std::to_string(k), axis);
  }
  for (int yy = 0; yy < n; ++yy) {
    for (int xx = 0; xx < n; ++xx) {
      const double cx = x0 + xx * kCell, cy = y0 + yy * kCell;
      const int v = g.At(xx, yy), c = g.ClusterAt(xx, yy);
      doc.Rect(cx, cy, kCell, kCell, v == 0 ? "#ffffff" : kTints[c % std::size(kTints)], "#b0bec5",
               1);
      if (v == 0) continue;
      doc.Text(cx + kCell / 2, cy + kCell / 2 + 1, std::to_string(v),
               {.size = 20, .anchor = "middle", .bold = true, .centered_vertically = true});
      doc.Text(cx + kCell - 4, cy + 11, ClusterLetter(c),
               {.size = 9, .fill = "#607d8b", .anchor = "end"});
    }
  }
  doc.Rect(x0, y0, n * kCell, n * kCell, "none", "#455a64", 2);
  for (size_t k = 0; k < moves.size(); ++k) {
    const Move& m = moves[k];
    const bool drawable = m.x1 < n && m.y1 < n && m.x2 < n && m.y2 < n;
    if (drawable) Arrow(doc, x0, y0, m, static_cast<int>(k + 1));
  }
  y = y0 + n * kCell + 28;
  const double width = std::max(x0 + n * kCell + kMargin, kMargin * 2 + 64 * 7.8);
  if (par >= 0) {
    doc.Text(kMargin, y,
             fmt::format("Par {}. The moves, as typed (x,y of the number, direction):", par),
             {.size = 14, .fill = "#1565c0", .bold = true});
    y += 20;
    constexpr size_t kPerLine = 6;
    std::vector<std::string> lines;
    for (size_t k = 0; k < moves.size(); ++k) {
      const Move& m = moves[k];
      if (k % kPerLine == 0) lines.emplace_back();
      const char d = m.x2 > m.x1 ? 'R' : m.x2 < m.x1 ? 'L' : m.y2 < m.y1 ? 'U' : 'D';
      lines.back() +=
          fmt::format("{}{}. {},{}{}", k % kPerLine ? "     " : "", k + 1, m.x1, m.y1, d);
    }
    y = doc.Lines(kMargin, y, lines, 18, {.size = 13, .fill = "#1565c0"});
  }
  if (!note.empty())
    y = doc.Lines(kMargin, y, svg::Wrap(note, 64), 18, {.size = 13, .fill = "#b00020"});
  return doc.Finish(width, y + 4);
}

}  // namespace foundry::puzzles::decodoku
