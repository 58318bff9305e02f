// Puzzle ids (puzzles/puzzle_id.h), with secret-number puzzles as examples.
#include "puzzles/puzzle_id.h"

#include <string>

#include <gtest/gtest.h>

#include "puzzles/secret_number/secret_number.h"

namespace foundry::puzzles {
namespace {

using json = nlohmann::json;

const Family& SN() { return secret_number::TheFamily(); }

json Rule(const std::string& subject, const std::string& op, int64_t value) {
  return {{"subject", subject}, {"op", op}, {"value", value}};
}

std::string IdOf(const json& puzzle) { return PuzzleId(SN(), SN().CanonicalBytes(puzzle)); }

const json kSeed = {{"digits", 3},
                    {"rules", {Rule("diff:1,2", "eq", 9), Rule("diff:2,3", "eq", 9)}}};

TEST(PuzzleIdTest, SamePuzzleSameId) { EXPECT_EQ(IdOf(kSeed), IdOf(json::parse(kSeed.dump()))); }

TEST(PuzzleIdTest, ReorderedRulesSameId) {
  const json reordered = {{"digits", 3},
                          {"rules", {Rule("diff:2,3", "eq", 9), Rule("diff:1,2", "eq", 9)}}};
  EXPECT_EQ(IdOf(reordered), IdOf(kSeed));
  json with_text = kSeed;
  with_text["rules"][1]["text"] = "The difference of my last two digits is 9.";
  EXPECT_EQ(IdOf(with_text), IdOf(kSeed));
}

TEST(PuzzleIdTest, DifferentPuzzleDifferentId) {
  json other_value = kSeed;
  other_value["rules"][1]["value"] = 8;
  json other_op = kSeed;
  other_op["rules"][1]["op"] = "ne";
  json other_digits = {{"digits", 4}, {"rules", kSeed["rules"]}};
  json extra_rule = kSeed;
  extra_rule["rules"].push_back(Rule("sum", "ne", 1));
  for (const json& p : {other_value, other_op, other_digits, extra_rule}) {
    EXPECT_NE(IdOf(p), IdOf(kSeed)) << p.dump();
  }
}

TEST(PuzzleIdTest, StableValue) {
  // The hashed layout must never change: this id is forever.
  const std::string id = IdOf(kSeed);
  EXPECT_EQ(id, PuzzleId(SN(), "3|diff:1,2 eq 9;diff:2,3 eq 9"));
}

TEST(PuzzleIdTest, PrefixAndShape) {
  const std::string id = IdOf(kSeed);
  EXPECT_EQ(id.substr(0, 3), "sn-");
  EXPECT_EQ(id.size(), 3u + 32u);
  EXPECT_TRUE(LooksLikePuzzleId(id));
}

TEST(PuzzleIdTest, LooksLikePuzzleId) {
  EXPECT_TRUE(LooksLikePuzzleId("sn-0123456789abcdef0123456789abcdef"));
  EXPECT_TRUE(LooksLikePuzzleId("sd-ffffffffffffffffffffffffffffffff"));
  EXPECT_FALSE(LooksLikePuzzleId(""));
  EXPECT_FALSE(LooksLikePuzzleId("sn-"));
  EXPECT_FALSE(LooksLikePuzzleId("-0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(LooksLikePuzzleId("sn0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(LooksLikePuzzleId("sn-0123456789ABCDEF0123456789abcdef"));
  EXPECT_FALSE(LooksLikePuzzleId("sn-0123456789abcdef0123456789abcde"));
  EXPECT_FALSE(LooksLikePuzzleId("sn-0123456789abcdef0123456789abcdef0"));
  EXPECT_FALSE(LooksLikePuzzleId("sn-0123456789abcdeg0123456789abcdef"));
}

}  // namespace
}  // namespace foundry::puzzles
