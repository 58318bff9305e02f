// The generic parameter parsing every family relies on (puzzles/params.h).
#include "puzzles/params.h"

#include "common/quote.h"

#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace foundry::puzzles {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

std::vector<ParamSpec> Specs() {
  return {ParamSpec::Int("size", 8, 3, 12, "grid side"),
          ParamSpec::Bool("minimal", true, "drop clues not needed"),
          ParamSpec::Choice("box", {"3x3", "2x2", "2x3"}, "box shape")};
}

Result<Params> Parse(std::map<std::string, std::string> raw) { return ParseParams(Specs(), raw); }

TEST(ParamsTest, DefaultsFilled) {
  auto p = Parse({});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->Int("size"), 8);
  EXPECT_TRUE(p->Bool("minimal"));
  EXPECT_EQ(p->Choice("box"), "3x3");
  EXPECT_EQ(p->json(), (json{{"box", "3x3"}, {"minimal", true}, {"size", 8}}));
}

TEST(ParamsTest, GivenValuesOverrideDefaults) {
  auto p = Parse({{"size", "12"}, {"box", "2x3"}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->Int("size"), 12);
  EXPECT_EQ(p->Choice("box"), "2x3");
  EXPECT_TRUE(p->Bool("minimal"));
}

TEST(ParamsTest, UnknownKeyNamesTheKnownKeys) {
  auto p = Parse({{"colour", "red"}});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(p.status().message(), HasSubstr("'colour'"));
  EXPECT_THAT(p.status().message(), HasSubstr("size, minimal, box"));
}

TEST(ParamsTest, UnknownKeyWhenNoParameters) {
  auto p = ParseParams({}, {{"x", "1"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("takes no parameters"));
}

TEST(ParamsTest, OutOfRangeNamesKeyAndRange) {
  for (const char* bad : {"2", "13", "-1", "8x", "", "eight"}) {
    auto p = Parse({{"size", bad}});
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
    EXPECT_THAT(p.status().message(), HasSubstr("'size'"));
    EXPECT_THAT(p.status().message(), HasSubstr("3..12"));
  }
  EXPECT_TRUE(Parse({{"size", "3"}}).ok());
  EXPECT_TRUE(Parse({{"size", "12"}}).ok());
}

TEST(ParamsTest, ALongBadValueOrKeyIsQuotedShortNotEchoed) {
  const std::string huge(20'000, '7');
  auto p = Parse({{"size", huge}});
  ASSERT_FALSE(p.ok());
  EXPECT_LT(p.status().message().size(), 200u) << "the message echoes the value";
  EXPECT_THAT(p.status().message(), HasSubstr("'size'"));
  EXPECT_THAT(p.status().message(), HasSubstr("(20000 bytes)"));
  auto k = Parse({{std::string(5'000, 'k'), "1"}});
  ASSERT_FALSE(k.ok());
  EXPECT_LT(k.status().message().size(), 200u);
  EXPECT_THAT(k.status().message(), HasSubstr("(5000 bytes)"));
}

TEST(ParamsTest, QuoteInputNeverSplitsAUtf8Character) {
  std::string s = std::string(63, 'a') + "\xC3\xA9" + std::string(10, 'b');  // é straddles byte 64
  const std::string q = QuoteInput(s);
  EXPECT_EQ(q.substr(0, 63), std::string(63, 'a'));
  EXPECT_EQ(q.substr(63, 3), "...") << q;
  EXPECT_EQ(QuoteInput("short"), "short");
}

TEST(ParamsTest, Bools) {
  for (const char* yes : {"true", "1", "yes"}) {
    auto p = Parse({{"minimal", yes}});
    ASSERT_TRUE(p.ok()) << yes;
    EXPECT_TRUE(p->Bool("minimal"));
  }
  for (const char* no : {"false", "0", "no"}) {
    auto p = Parse({{"minimal", no}});
    ASSERT_TRUE(p.ok()) << no;
    EXPECT_FALSE(p->Bool("minimal"));
  }
  auto p = Parse({{"minimal", "maybe"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("'minimal'"));
  EXPECT_THAT(p.status().message(), HasSubstr("true|false (or yes|no, 1|0), got 'maybe'"));
}

TEST(ParamsTest, ChoiceOutsideListNamesChoices) {
  auto p = Parse({{"box", "4x4"}});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("'box'"));
  EXPECT_THAT(p.status().message(), HasSubstr("3x3|2x2|2x3"));
}

TEST(ParamsTest, FromJsonFillsDefaultsAndChecksTypes) {
  auto p = ParamsFromJson(Specs(), json{{"size", 5}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->json(), (json{{"box", "3x3"}, {"minimal", true}, {"size", 5}}));

  EXPECT_FALSE(ParamsFromJson(Specs(), json{{"size", "5"}}).ok());
  EXPECT_FALSE(ParamsFromJson(Specs(), json{{"size", 13}}).ok());
  const auto one = ParamsFromJson(Specs(), json{{"minimal", 1}});
  ASSERT_FALSE(one.ok());
  // JSON takes a JSON bool alone: the text form's yes|no is not offered.
  EXPECT_THAT(one.status().message(), HasSubstr("must be true|false, got '1'"));
  EXPECT_FALSE(ParamsFromJson(Specs(), json{{"box", "4x4"}}).ok());
  EXPECT_FALSE(ParamsFromJson(Specs(), json::array()).ok());
  auto unknown = ParamsFromJson(Specs(), json{{"colour", 1}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("size, minimal, box"));
}

TEST(ParamsTest, RoundTripThroughJson) {
  auto p = Parse({{"size", "10"}, {"minimal", "no"}});
  ASSERT_TRUE(p.ok());
  auto q = ParamsFromJson(Specs(), p->json());
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->json(), p->json());
}

TEST(ParamsTest, AllowedAndDefaultText) {
  const auto specs = Specs();
  EXPECT_EQ(specs[0].AllowedText(), "3..12");
  EXPECT_EQ(specs[0].DefaultText(), "8");
  EXPECT_EQ(specs[1].AllowedText(), "true|false");
  EXPECT_EQ(specs[1].DefaultText(), "true");
  EXPECT_EQ(specs[2].AllowedText(), "3x3|2x2|2x3");
  EXPECT_EQ(specs[2].DefaultText(), "3x3");
}

}  // namespace
}  // namespace foundry::puzzles
