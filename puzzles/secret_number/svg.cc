#include "puzzles/secret_number/svg.h"

#include <algorithm>

#include <fmt/format.h>

#include "puzzles/secret_number/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::secret_number {
namespace {

constexpr double kMargin = 20;
constexpr double kLine = 20;  // line height of the rules
constexpr size_t kWrap = 64;  // characters per rule line
constexpr double kBoxW = 44, kBoxH = 52, kBoxGap = 8;

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return svg::ErrorDocument("invalid puzzle: " + parsed.status().message());
  const ParsedPuzzle& p = *parsed;

  svg::Document doc(
      fmt::format("My Secret Number: a {}-digit number, {} rules", p.digits, p.rules.size()));
  svg::TextStyle title{.size = 18, .bold = true};
  doc.Text(kMargin, 32, "My Secret Number", title);
  double y = 60;
  doc.Text(kMargin, y,
           fmt::format("I am thinking of a {}-digit number (no leading zero).", p.digits));
  y += kLine * 1.5;

  const svg::TextStyle number_style{.fill = "#555", .anchor = "end", .bold = true};
  for (size_t k = 0; k < p.rules.size(); ++k) {
    doc.Text(kMargin + 26, y, fmt::format("{}.", k + 1), number_style);
    y = doc.Lines(kMargin + 34, y, svg::Wrap(RuleText(p.rules[k], p.digits), kWrap), kLine);
  }
  y += kLine * 0.5;
  doc.Text(kMargin, y, "What is my number?", {.bold = true});
  y += 14;

  std::string digits;  // the answer's digits, empty without a valid solution
  std::string note;
  if (solution != nullptr) {
    auto n = ParseSolution(*solution, p.digits);
    if (n.ok())
      digits = std::to_string(*n);
    else
      note = "invalid solution: " + n.status().message();
  }
  for (int k = 0; k < p.digits; ++k) {
    const double x = kMargin + k * (kBoxW + kBoxGap);
    doc.Rect(x, y, kBoxW, kBoxH, "#fafafa", "#333", 2, "rx=\"4\"");
    if (!digits.empty()) {
      doc.Text(x + kBoxW / 2, y + kBoxH / 2, std::string(1, digits[k]),
               {.size = 28,
                .fill = "#1565c0",
                .anchor = "middle",
                .bold = true,
                .centered_vertically = true});
    }
  }
  y += kBoxH + kLine;
  if (!note.empty()) y = doc.Lines(kMargin, y, svg::Wrap(note, kWrap), kLine, {.fill = "#b00020"});

  const double width = std::max(kMargin * 2 + 34 + svg::TextWidth(std::string(kWrap, 'x'), 14),
                                kMargin * 2 + p.digits * (kBoxW + kBoxGap));
  return doc.Finish(width, y);
}

}  // namespace foundry::puzzles::secret_number
