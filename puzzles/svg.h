// Building blocks of Family::RenderSvg(): one standalone SVG 1.1 document,
// with every piece of text escaped for XML.
//
// A family draws into an svg::Document in its own coordinates (pixels, y
// down) and calls Finish() with the size it used. The result starts with
//   <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width=.. height=..
//        viewBox="0 0 W H" ...>
// and ends with </svg>: no XML declaration, no external references (fonts,
// images, stylesheets), so the text can be saved as a .svg file or inlined
// in HTML as it is.
//
// Thread safety: Escape, Wrap and TextWidth are pure functions; a Document
// is a value owned by one thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace foundry::puzzles::svg {

// `text` with &, <, >, " and ' replaced by entities: safe both as element
// content and inside a double-quoted attribute value. Control characters
// other than tab and newline (not allowed in XML 1.0) become '?'.
std::string Escape(std::string_view text);

// `text` split at spaces into lines of at most `width` characters; a word
// longer than `width` stays whole on its own line. Newlines in `text` start
// a new line. Empty text gives no lines.
std::vector<std::string> Wrap(std::string_view text, size_t width);

// `v` rounded to hundredths, written as briefly as possible ("12", "3.5"):
// the form of every number in a document (also for path data).
std::string Num(double v);

// A rough width in pixels of `text` at font size `size` (sans-serif average
// advance, 0.6 em per character), for laying out boxes around text.
double TextWidth(std::string_view text, double size);

// How a piece of text is drawn.
struct TextStyle {
  double size = 14;  // font size in pixels
  std::string_view fill = "#222";
  std::string_view anchor = "start";  // start | middle | end
  bool bold = false;
  bool monospace = false;
  bool centered_vertically = false;  // y is the middle of the text, not its baseline
};

class Document {
 public:
  // `title` becomes the document's <title> (shown as a tooltip and read by
  // screen readers); `background` fills the whole canvas first.
  explicit Document(std::string_view title, std::string_view background = "#ffffff");

  // Shapes, drawn in the order they are added. Colours are SVG colour
  // strings ("#1f77b4", "none"); `extra` is appended verbatim inside the
  // element (e.g. "stroke-dasharray=\"4 2\""), so it must come from code,
  // never from puzzle data.
  void Rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view stroke = "none", double stroke_width = 1, std::string_view extra = "");
  void Line(double x1, double y1, double x2, double y2, std::string_view stroke,
            double stroke_width = 1, std::string_view extra = "");
  void Circle(double cx, double cy, double r, std::string_view fill,
              std::string_view stroke = "none", double stroke_width = 1);
  // A path in SVG path syntax ("M 0 0 L 10 10"), built by code.
  void Path(std::string_view d, std::string_view fill, std::string_view stroke,
            double stroke_width = 1, std::string_view extra = "");
  // One line of text, escaped here.
  void Text(double x, double y, std::string_view text, const TextStyle& style = {});
  // Several lines from y down, `line_height` apart; returns the y below the last.
  double Lines(double x, double y, const std::vector<std::string>& lines, double line_height,
               const TextStyle& style = {});

  // The complete document of `width` x `height` pixels (rounded up).
  std::string Finish(double width, double height) const;

 private:
  std::string title_;
  std::string background_;
  std::string body_;
};

// A small complete document that shows `message` (wrapped) in red: what
// RenderSvg() returns for a puzzle it cannot read, so the caller still gets
// a well-formed image.
std::string ErrorDocument(std::string_view message);

}  // namespace foundry::puzzles::svg
