#include "puzzles/bulls_cows/svg.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/bulls_cows/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::bulls_cows {
namespace {

constexpr double kMargin = 20;
constexpr double kBox = 32, kBoxStep = 36;  // a digit box and its pitch
constexpr double kRow = 44;                 // pitch of the clue rows
constexpr double kCountW = 110;             // width of the bulls and cows columns

// The digits of `code` in boxes from (x, y); empty boxes when `code` is "".
void DigitBoxes(svg::Document& doc, double x, double y, int length, const std::string& code,
                std::string_view fill, std::string_view ink) {
  for (int k = 0; k < length; ++k) {
    const double bx = x + k * kBoxStep;
    doc.Rect(bx, y, kBox, kBox, fill, "#333", 1.5, "rx=\"3\"");
    if (k < static_cast<int>(code.size())) {
      doc.Text(
          bx + kBox / 2, y + kBox / 2, std::string(1, code[k]),
          {.size = 20, .fill = ink, .anchor = "middle", .bold = true, .centered_vertically = true});
    }
  }
}

// `count` markers (filled dots or rings) and the number, from (x, mid y).
void Markers(svg::Document& doc, double x, double y, int count, bool filled) {
  for (int k = 0; k < count; ++k) {
    doc.Circle(x + 7 + k * 14, y, 5, filled ? "#222" : "#ffffff", "#222", 1.5);
  }
  doc.Text(x + kCountW - 14, y, std::to_string(count),
           {.size = 16, .anchor = "end", .bold = true, .centered_vertically = true});
}

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;

  svg::Document doc(fmt::format("Bulls and Cows: {} digits, {} clues", p.length, p.clues.size()));
  doc.Text(kMargin, 32, "Bulls and Cows", {.size = 18, .bold = true});
  doc.Text(kMargin, 58,
           fmt::format("A secret of {} different digits{}.", p.length,
                       p.leading_zero ? " (it may start with 0)" : " (no leading zero)"));
  doc.Text(kMargin, 78,
           "Bull (dot): right digit, right place. Cow (ring): right digit, wrong place.",
           {.size = 12, .fill = "#555"});

  const double boxes_x = kMargin + 30;
  const double bulls_x = boxes_x + p.length * kBoxStep + 16;
  const double cows_x = bulls_x + kCountW;
  const double right = cows_x + kCountW;
  double y = 108;
  const svg::TextStyle head{.size = 13, .fill = "#555", .bold = true};
  doc.Text(kMargin, y, "#", head);
  doc.Text(boxes_x, y, "guess", head);
  doc.Text(bulls_x, y, "bulls", head);
  doc.Text(cows_x, y, "cows", head);
  y += 8;
  doc.Line(kMargin, y, right, y, "#999", 1);
  y += 6;
  for (size_t k = 0; k < p.clues.size(); ++k) {
    const Clue& c = p.clues[k];
    if (k % 2 == 1) doc.Rect(kMargin, y - 2, right - kMargin, kRow, "#f3f6fa");
    doc.Text(kMargin, y + kBox / 2, std::to_string(k + 1),
             {.size = 14, .fill = "#555", .centered_vertically = true});
    DigitBoxes(doc, boxes_x, y + 4, p.length, c.guess, "#ffffff", "#222");
    Markers(doc, bulls_x, y + 4 + kBox / 2, c.bulls, true);
    Markers(doc, cows_x, y + 4 + kBox / 2, c.cows, false);
    y += kRow;
  }
  doc.Line(kMargin, y, right, y, "#999", 1);
  y += 24;

  std::string secret, note;
  if (solution != nullptr) {
    auto s = ParseSolution(*solution, p);
    if (s.ok())
      secret = *s;
    else
      note = "invalid solution: " + s.status().message();
  }
  doc.Text(kMargin, y + kBox / 2, "Secret:", {.bold = true, .centered_vertically = true});
  DigitBoxes(doc, boxes_x + 40, y, p.length, secret, "#fafafa", "#1565c0");
  y += kBox + 24;
  if (!note.empty()) y = doc.Lines(kMargin, y, svg::Wrap(note, 60), 18, {.fill = "#b00020"});

  const double width =
      std::max(right + kMargin, kMargin * 2 + svg::TextWidth(std::string(76, 'x'), 12));
  return doc.Finish(width, y);
}

}  // namespace foundry::puzzles::bulls_cows
