// The shared answer-reading helpers (puzzles/answer_text.h).
#include "puzzles/answer_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace foundry::puzzles {
namespace {

using ::testing::ElementsAre;

TEST(AnswerTextTest, FoldingTrimmingSplitting) {
  EXPECT_EQ(AsciiLower("Old GOLD 7"), "old gold 7");
  EXPECT_EQ(Trim("\t a b \n"), "a b");
  EXPECT_EQ(FoldName("  Orange \t Juice "), "orange juice");
  EXPECT_EQ(WithoutSpaces(" 1 2\n3\t"), "123");
  EXPECT_THAT(SplitTrimmed(" a ; b;;\n c ", ";\n"), ElementsAre("a", "b", "c"));
  EXPECT_TRUE(SplitTrimmed("  ", ";").empty());
  EXPECT_EQ(QuoteAnswer("abc"), "'abc'");
  EXPECT_EQ(QuoteAnswer(std::string(50, 'x')), "'" + std::string(40, 'x') + "...'");
  // The cut never splits a character: "é" across bytes 40 and 41 stays out whole.
  EXPECT_EQ(QuoteAnswer(std::string(39, 'x') + "\xC3\xA9" + std::string(9, 'y')),
            "'" + std::string(39, 'x') + "...'");
}

TEST(AnswerTextTest, CharactersAreWholeUtf8Sequences) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xFF";  // a, é, €, a stray byte
  EXPECT_EQ(CharAt(text, 0), "a");
  EXPECT_EQ(CharAt(text, 1), "\xC3\xA9");
  EXPECT_EQ(CharAt(text, 3), "\xE2\x82\xAC");
  EXPECT_EQ(CharAt(text, 6), "\xFF");
  EXPECT_EQ(CharAt(text, 2), "\xA9") << "a continuation byte on its own";
  EXPECT_EQ(CharCount(text), 4u);
  EXPECT_EQ(CharCount(""), 0u);
  TextScanner in("\xC3\xA9t\xC3\xA9");
  EXPECT_EQ(in.PeekChar(), "\xC3\xA9");
}

TEST(AnswerTextTest, ScannerReadsNumbersAndWords) {
  TextScanner in("  12, Coin x 99999999999999999999");
  in.Skip();
  EXPECT_EQ(in.ReadNumber(), 12);
  EXPECT_FALSE(in.ReadNumber().has_value());  // ',' is next
  in.Skip(",");
  EXPECT_EQ(in.ReadWord(), "coin");
  in.Skip();
  EXPECT_TRUE(in.Accept('x'));
  EXPECT_FALSE(in.Accept('x'));
  in.Skip();
  EXPECT_EQ(in.ReadNumber(), 1'000'000'000'001);  // capped, never overflowing
  EXPECT_TRUE(in.AtEnd());
  EXPECT_EQ(in.PeekChar(), "");
  EXPECT_EQ(in.ReadWord(), "");
}

}  // namespace
}  // namespace foundry::puzzles
