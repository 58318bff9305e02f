// The shared SVG helpers (puzzles/svg.h): escaping, wrapping, numbers, and
// the document frame every family's RenderSvg() returns.
#include "puzzles/svg.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace foundry::puzzles::svg {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SvgHelpersTest, EscapeCoversTheFiveXmlCharactersAndControlBytes) {
  EXPECT_EQ(Escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(Escape("tab\tnew\nline"), "tab\tnew\nline");
  EXPECT_EQ(Escape(std::string("bell\x07") + "\x7f"), "bell??");
  EXPECT_EQ(Escape("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes through
}

TEST(SvgHelpersTest, WrapBreaksAtSpacesAndKeepsLongWords) {
  EXPECT_THAT(Wrap("the quick brown fox", 10), ElementsAre("the quick", "brown fox"));
  EXPECT_THAT(Wrap("a verylongwordhere b", 5), ElementsAre("a", "verylongwordhere", "b"));
  EXPECT_THAT(Wrap("one\ntwo  three", 20), ElementsAre("one", "two three"));
  EXPECT_TRUE(Wrap("", 10).empty());
}

TEST(SvgHelpersTest, NumbersAreShortAndRounded) {
  EXPECT_EQ(Num(12), "12");
  EXPECT_EQ(Num(3.5), "3.5");
  EXPECT_EQ(Num(0.1 + 0.2), "0.3");
  EXPECT_EQ(Num(2.0 / 3.0), "0.67");
  EXPECT_EQ(Num(-0.001), "0");
}

TEST(SvgHelpersTest, DocumentIsAStandaloneSvg) {
  Document doc("a <title> & more");
  doc.Rect(1, 2, 3, 4, "#fff", "#000", 1.5, "rx=\"2\"");
  doc.Text(10, 20, "x < y & z", {.size = 12, .anchor = "middle", .bold = true});
  doc.Line(0, 0, 5, 5, "#333");
  doc.Circle(5, 5, 2, "red");
  doc.Path("M 0 0 L 1 1", "none", "blue");
  const std::string svg = doc.Finish(100.2, 50);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"101\" "
                      "height=\"50\" viewBox=\"0 0 101 50\"",
                      0),
            0u);
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
  EXPECT_THAT(svg, HasSubstr("<title>a &lt;title&gt; &amp; more</title>"));
  EXPECT_THAT(svg, HasSubstr(">x &lt; y &amp; z</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\" font-weight=\"bold\""));
  EXPECT_THAT(
      svg, HasSubstr("<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\" fill=\"#fff\" stroke=\"#000\" "
                     "stroke-width=\"1.5\" rx=\"2\"/>"));
}

TEST(SvgHelpersTest, CentredTextSitsOnAComputedBaseline) {
  Document doc("t");
  doc.Text(0, 100, "8", {.size = 20, .centered_vertically = true});
  EXPECT_THAT(doc.Finish(10, 10), HasSubstr("y=\"107\""));
}

TEST(SvgHelpersTest, ErrorDocumentShowsTheMessageEscaped) {
  const std::string svg = ErrorDocument("bad <puzzle> & worse");
  EXPECT_EQ(svg.rfind("<svg xmlns=", 0), 0u);
  EXPECT_THAT(svg, HasSubstr("bad &lt;puzzle&gt; &amp; worse"));
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
}

}  // namespace
}  // namespace foundry::puzzles::svg
