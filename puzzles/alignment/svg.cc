#include "puzzles/alignment/svg.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/alignment/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr double kMargin = 20;
constexpr double kCell = 34;
constexpr double kChip = 14;  // a guide colour chip
// Colour c of kColorLetters: A, C, G, T.
constexpr std::string_view kFill[] = {"#43a047", "#1e88e5", "#fb8c00", "#e53935"};

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;
  const Board& b = p.board;

  Layout layout = BaseLayout(b);
  bool solved = false;
  std::string note;
  if (solution != nullptr) {
    auto s = ParseSolution(*solution, b);
    if (!s.ok())
      note = "invalid solution: " + s.status().message();
    else if (!IsValidLayout(b, s->first))
      note = "the solution's layout does not fit the board";
    else {
      layout = s->first;
      solved = true;
    }
  }

  svg::Document doc(fmt::format("Alignment: {} columns, {} rows, target {}", b.width(), b.height,
                                p.target_score));
  doc.Text(kMargin, 32, "Alignment", {.size = 18, .bold = true});
  double y = doc.Lines(
      kMargin, 56,
      svg::Wrap(fmt::format("Insert gaps (each pushes the bricks below it down one row) so bricks "
                            "match their row's guide. A row scores one point per matching brick, "
                            "x{} when every column matches.{}",
                            b.row_bonus,
                            b.max_gaps > 0 ? fmt::format(" At most {} gaps.", b.max_gaps) : ""),
                80),
      18, {.size = 13});

  // Geometry: row numbers | guide chips | board | row points.
  const double label_x = kMargin + 16;
  const double guide_x = label_x + 12;
  const double board_x = guide_x + 4 * (kChip + 2) + 12;
  const double board_w = b.width() * kCell;
  const double top = y + 22;
  const svg::TextStyle small{
      .size = 11, .fill = "#555", .anchor = "middle", .centered_vertically = true};
  for (int c = 0; c < b.width(); ++c) {
    doc.Text(board_x + (c + 0.5) * kCell, top - 10, std::to_string(c), small);
  }
  doc.Text(guide_x, top - 10, "guide", {.size = 11, .fill = "#555", .centered_vertically = true});
  doc.Text(board_x + board_w + 10, top - 10, "points",
           {.size = 11, .fill = "#555", .centered_vertically = true});

  for (int r = 0; r < b.height; ++r) {
    const double ry = top + r * kCell;
    doc.Rect(board_x, ry, board_w, kCell, r % 2 ? "#f5f7fa" : "#ffffff", "none");
    doc.Text(label_x, ry + kCell / 2, std::to_string(r),
             {.size = 11, .fill = "#555", .anchor = "end", .centered_vertically = true});
    int chip = 0;
    for (size_t color = 0; color < kColorLetters.size(); ++color) {
      if (!((b.guides[r] >> color) & 1)) continue;
      const double cx = guide_x + chip++ * (kChip + 2);
      doc.Rect(cx, ry + (kCell - kChip) / 2, kChip, kChip, kFill[color], "none", 1, "rx=\"2\"");
      doc.Text(cx + kChip / 2, ry + kCell / 2, std::string(1, kColorLetters[color]),
               {.size = 9,
                .fill = "#ffffff",
                .anchor = "middle",
                .bold = true,
                .centered_vertically = true});
    }
    int matching = 0;
    for (int c = 0; c < b.width(); ++c) {
      const auto& cells = layout[c];
      const double cx = board_x + c * kCell;
      if (r >= static_cast<int>(cells.size())) continue;
      if (cells[r] == kGap) {
        doc.Rect(cx + 4, ry + 4, kCell - 8, kCell - 8, "none", "#757575", 1.5,
                 "rx=\"4\" stroke-dasharray=\"4 3\"");
        continue;
      }
      const int color = cells[r];
      const bool match = (b.guides[r] >> color) & 1;
      matching += match;
      doc.Rect(cx + 3, ry + 3, kCell - 6, kCell - 6, kFill[color], match ? "#212121" : "none",
               match ? 2.5 : 1, "rx=\"5\"");
      doc.Text(cx + kCell / 2, ry + kCell / 2, std::string(1, kColorLetters[color]),
               {.size = 15,
                .fill = "#ffffff",
                .anchor = "middle",
                .bold = true,
                .centered_vertically = true});
    }
    const std::string points = matching == b.width() ? fmt::format("{} x{}", matching, b.row_bonus)
                                                     : std::to_string(matching);
    doc.Text(board_x + board_w + 10, ry + kCell / 2, points,
             {.size = 12, .bold = matching == b.width(), .centered_vertically = true});
  }
  for (int c = 0; c <= b.width(); ++c) {
    doc.Line(board_x + c * kCell, top, board_x + c * kCell, top + b.height * kCell, "#cfd8dc", 1);
  }
  doc.Rect(board_x, top, board_w, b.height * kCell, "none", "#546e7a", 1.5);

  y = top + b.height * kCell + 28;
  doc.Text(kMargin, y,
           fmt::format("Score now {}; reach {} (the greedy reaches {}, the best known is {}).",
                       p.base_score, p.target_score, p.greedy_score, p.best_score),
           {.size = 13});
  y += 22;
  if (solved) {
    doc.Text(kMargin, y,
             fmt::format("This layout: {} gaps, {} points.", GapCount(layout), Score(b, layout)),
             {.size = 14, .fill = "#1565c0", .bold = true});
    y += 22;
  }
  if (!note.empty())
    y = doc.Lines(kMargin, y, svg::Wrap(note, 80), 18, {.size = 13, .fill = "#b00020"});
  const double width = std::max(board_x + board_w + 70, kMargin * 2 + 80 * 7.8);
  return doc.Finish(width, y);
}

}  // namespace foundry::puzzles::alignment
