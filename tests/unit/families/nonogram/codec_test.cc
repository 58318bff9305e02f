// The nonogram JSON: strict reading (InvalidArgument naming the field),
// round trips, canonical bytes and the text rendering.
#include <gtest/gtest.h>

#include "puzzles/nonogram/codec.h"
#include "puzzles/nonogram/nonogram.h"

namespace foundry::puzzles::nonogram {
namespace {

nlohmann::json Good() {
  return nlohmann::json::parse(R"({"width":5,"height":5,
    "rows":[[2],[1],[3],[2],[1,1]],"columns":[[1,1],[3],[1],[2],[2]]})");
}

std::string Error(const nlohmann::json& puzzle) {
  auto p = ParsePuzzle(puzzle);
  EXPECT_FALSE(p.ok()) << puzzle.dump();
  if (p.ok()) return "";
  EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  return p.status().message();
}

TEST(NonogramCodecTest, ReadsAndWritesTheShape) {
  auto p = ParsePuzzle(Good());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->rows[4], (Clue{1, 1}));
  EXPECT_EQ(PuzzleJson(*p), Good());
  nlohmann::json empty_line = Good();
  empty_line["rows"][1] = nlohmann::json::array();
  EXPECT_TRUE(ParsePuzzle(empty_line).ok());
}

TEST(NonogramCodecTest, RefusesEverythingElseNamingTheField) {
  const auto with = [](const char* key, nlohmann::json v) {
    nlohmann::json p = Good();
    p[key] = std::move(v);
    return p;
  };
  EXPECT_NE(Error(nullptr).find("width"), std::string::npos);
  EXPECT_NE(Error(with("extra", 1)).find("'extra'"), std::string::npos);
  EXPECT_NE(Error(with("width", 4)).find("'width'"), std::string::npos);
  EXPECT_NE(Error(with("width", 41)).find("'width'"), std::string::npos);
  EXPECT_NE(Error(with("height", "5")).find("'height'"), std::string::npos);
  EXPECT_NE(Error(with("width", 5.0)).find("'width'"), std::string::npos);
  nlohmann::json missing = Good();
  missing.erase("columns");
  EXPECT_NE(Error(missing).find("'columns'"), std::string::npos);
  EXPECT_NE(Error(with("rows", {{2}, {1}})).find("5 clues"), std::string::npos);
  EXPECT_NE(Error(with("rows", {{2}, {1}, {3}, {2}, 1})).find("line 5"), std::string::npos);
  EXPECT_NE(Error(with("rows", {{2}, {0}, {3}, {2}, {1}})).find("line 2"), std::string::npos);
  EXPECT_NE(Error(with("rows", {{2}, {1.5}, {3}, {2}, {1}})).find("line 2"), std::string::npos);
  EXPECT_NE(Error(with("rows", {{2}, {1}, {3, 2}, {2}, {1}})).find("do not fit"),
            std::string::npos);
  EXPECT_NE(Error(with("columns", {{1}, {6}, {1}, {1}, {1}})).find("'columns' line 2"),
            std::string::npos);
  EXPECT_NE(Error(with("columns", {{1}, {3, 2}, {1}, {1}, {1}})).find("'columns' line 2"),
            std::string::npos);
}

TEST(NonogramCodecTest, Solutions) {
  const ParsedPuzzle p = *ParsePuzzle(Good());
  const nlohmann::json s = {{"grid", {"##...", ".#...", ".###.", "...##", "#...#"}}};
  auto rows = ParseSolution(p, s);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_TRUE(Satisfies(p, *rows));
  EXPECT_EQ(SolutionJson(*rows, 5), s);
  for (const nlohmann::json& bad :
       {nlohmann::json(nullptr), nlohmann::json{{"grid", {"##..."}}},
        nlohmann::json{{"grid", {"##...", ".#...", ".###.", "...##", "#..#"}}},
        nlohmann::json{{"grid", {"##...", ".#...", ".###.", "...##", "#..X#"}}},
        nlohmann::json{{"grid", {"##...", ".#...", ".###.", "...##", "#...#"}}, {"more", 1}}}) {
    auto r = ParseSolution(p, bad);
    ASSERT_FALSE(r.ok()) << bad.dump();
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  }
}

TEST(NonogramCodecTest, CanonicalBytesAreTheClues) {
  const ParsedPuzzle p = *ParsePuzzle(Good());
  EXPECT_EQ(CanonicalBytes(p), "nonogram|5x5|2,1,3,2,1.1|1.1,3,1,2,2|");
  // The mirror image is another puzzle.
  ParsedPuzzle mirrored = p;
  std::reverse(mirrored.columns.begin(), mirrored.columns.end());
  EXPECT_NE(CanonicalBytes(mirrored), CanonicalBytes(p));
  ParsedPuzzle blank_row = p;
  blank_row.rows[1] = {};
  EXPECT_EQ(CanonicalBytes(blank_row), "nonogram|5x5|2,0,3,2,1.1|1.1,3,1,2,2|");
}

TEST(NonogramCodecTest, TextAndSvg) {
  const std::string text = TheFamily().RenderText(Good());
  EXPECT_NE(text.find("Nonogram 5x5"), std::string::npos) << text;
  EXPECT_NE(text.find("1 1 |"), std::string::npos) << text;
  const nlohmann::json s = {{"grid", {"##...", ".#...", ".###.", "...##", "#...#"}}};
  const std::string bare = TheFamily().RenderSvg(Good(), nullptr);
  const std::string solved = TheFamily().RenderSvg(Good(), &s);
  EXPECT_NE(bare.find("<svg"), std::string::npos);
  EXPECT_GT(solved.size(), bare.size());  // the filled cells
}

}  // namespace
}  // namespace foundry::puzzles::nonogram
