#include "puzzles/svg.h"

#include <cmath>

#include <fmt/format.h>

namespace foundry::puzzles::svg {
namespace {

// Attribute text for `extra`, with the leading space it needs. (Appended,
// not `" " + std::string(extra)`: g++ 12 at -O3 reports a false
// -Wrestrict inside that operator+, which broke the Release build.)
std::string Extra(std::string_view extra) {
  std::string out;
  if (extra.empty()) return out;
  out.reserve(extra.size() + 1);
  out.push_back(' ');
  out.append(extra);
  return out;
}

}  // namespace

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default: {
        const auto u = static_cast<unsigned char>(ch);
        out += (u < 0x20 && ch != '\t' && ch != '\n') || u == 0x7f ? '?' : ch;
      }
    }
  }
  return out;
}

std::vector<std::string> Wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view para = text.substr(0, nl);
    std::string line;
    size_t at = 0;
    while (at < para.size()) {
      while (at < para.size() && para[at] == ' ') ++at;
      if (at >= para.size()) break;
      size_t end = para.find(' ', at);
      if (end == std::string_view::npos) end = para.size();
      const std::string_view word = para.substr(at, end - at);
      if (!line.empty() && line.size() + 1 + word.size() > width) {
        lines.push_back(std::move(line));
        line.clear();
      }
      if (!line.empty()) line += ' ';
      line += word;
      at = end;
    }
    lines.push_back(std::move(line));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::string Num(double v) {
  const double r = std::round(v * 100) / 100;
  return fmt::format("{}", r == 0 ? 0.0 : r);  // no "-0"
}

double TextWidth(std::string_view text, double size) {
  return 0.6 * size * static_cast<double>(text.size());
}

Document::Document(std::string_view title, std::string_view background)
    : title_(title), background_(background) {}

void Document::Rect(double x, double y, double w, double h, std::string_view fill,
                    std::string_view stroke, double stroke_width, std::string_view extra) {
  body_ += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" "
      "stroke-width=\"{}\"{}/>\n",
      Num(x), Num(y), Num(w), Num(h), Escape(fill), Escape(stroke), Num(stroke_width),
      Extra(extra));
}

void Document::Line(double x1, double y1, double x2, double y2, std::string_view stroke,
                    double stroke_width, std::string_view extra) {
  body_ += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
      Num(x1), Num(y1), Num(x2), Num(y2), Escape(stroke), Num(stroke_width), Extra(extra));
}

void Document::Circle(double cx, double cy, double r, std::string_view fill,
                      std::string_view stroke, double stroke_width) {
  body_ += fmt::format(
      "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
      Num(cx), Num(cy), Num(r), Escape(fill), Escape(stroke), Num(stroke_width));
}

void Document::Path(std::string_view d, std::string_view fill, std::string_view stroke,
                    double stroke_width, std::string_view extra) {
  body_ += fmt::format("<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                       Escape(d), Escape(fill), Escape(stroke), Num(stroke_width), Extra(extra));
}

void Document::Text(double x, double y, std::string_view text, const TextStyle& style) {
  // Centred text: the baseline about half a cap height (0.7 em) below the
  // middle, which every renderer draws alike (dominant-baseline is not).
  const double baseline = style.centered_vertically ? y + 0.35 * style.size : y;
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"", Num(x),
                       Num(baseline), Num(style.size), Escape(style.fill));
  if (style.anchor != "start") body_ += fmt::format(" text-anchor=\"{}\"", Escape(style.anchor));
  if (style.bold) body_ += " font-weight=\"bold\"";
  if (style.monospace) body_ += " font-family=\"monospace\"";
  // Keep runs of spaces (aligned columns in monospace text).
  body_ += " xml:space=\"preserve\">" + Escape(text) + "</text>\n";
}

double Document::Lines(double x, double y, const std::vector<std::string>& lines,
                       double line_height, const TextStyle& style) {
  for (const std::string& line : lines) {
    Text(x, y, line, style);
    y += line_height;
  }
  return y;
}

std::string Document::Finish(double width, double height) const {
  const auto w = static_cast<long>(std::ceil(width));
  const auto h = static_cast<long>(std::ceil(height));
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
      w, h);
  out += "<title>" + Escape(title_) + "</title>\n";
  out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", w, h,
                     Escape(background_));
  out += body_;
  out += "</svg>";  // exactly the last bytes: no trailing newline
  return out;
}

std::string ErrorDocument(std::string_view message) {
  Document doc("invalid puzzle");
  const std::vector<std::string> lines = Wrap(message, 70);
  TextStyle style;
  style.fill = "#b00020";
  const double bottom = doc.Lines(16, 28, lines, 20, style);
  return doc.Finish(16 + TextWidth(std::string(70, 'x'), style.size) + 16, bottom + 8);
}

}  // namespace foundry::puzzles::svg
