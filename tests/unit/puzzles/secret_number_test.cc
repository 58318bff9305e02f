#include "puzzles/secret_number/secret_number.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "puzzles/registry.h"
#include "puzzles/rng.h"
#include "puzzles/secret_number/rules.h"
#include "tests/unit/families/family_test_util.h"

namespace foundry::puzzles {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

// ---- helpers ----

const Family& SN() { return secret_number::TheFamily(); }

Params MakeParams(std::map<std::string, std::string> raw = {}) {
  return testing::ParamsOrFail(SN(), raw);
}

Candidate Gen(const Params& params, uint64_t seed, uint64_t index) {
  return testing::GenerateAt(SN(), params, seed, index);
}

json Rule(const std::string& subject, const std::string& op, int64_t value) {
  return {{"subject", subject}, {"op", op}, {"value", value}};
}

json SeedPuzzle() {
  return {{"digits", 3}, {"rules", {Rule("diff:1,2", "eq", 9), Rule("diff:2,3", "eq", 9)}}};
}

// An evaluation written here, independently of the family: the subject of a
// rule for a number, from its decimal string.
int64_t TestSubject(const std::string& subject, int64_t number) {
  const std::string s = std::to_string(number);
  std::vector<int> d;
  for (char c : s) d.push_back(c - '0');
  int i = 0, j = 0;
  if (std::sscanf(subject.c_str(), "digit:%d", &i) == 1) return d.at(i - 1);
  if (std::sscanf(subject.c_str(), "sum:%d,%d", &i, &j) == 2) return d.at(i - 1) + d.at(j - 1);
  if (std::sscanf(subject.c_str(), "diff:%d,%d", &i, &j) == 2) {
    return d.at(i - 1) > d.at(j - 1) ? d.at(i - 1) - d.at(j - 1) : d.at(j - 1) - d.at(i - 1);
  }
  if (std::sscanf(subject.c_str(), "product:%d,%d", &i, &j) == 2) return d.at(i - 1) * d.at(j - 1);
  int64_t acc = 0;
  if (subject == "sum") {
    for (int x : d) acc += x;
    return acc;
  }
  if (subject == "product") {
    acc = 1;
    for (int x : d) acc *= x;
    return acc;
  }
  if (subject == "number") return number;
  if (subject == "count_even") {
    for (int x : d) acc += x % 2 == 0;
    return acc;
  }
  if (subject == "count_distinct")
    return static_cast<int64_t>(std::set<int>(d.begin(), d.end()).size());
  ADD_FAILURE() << "unknown subject " << subject;
  return -1;
}

bool TestHolds(const json& rule, int64_t number) {
  const int64_t v = TestSubject(rule.at("subject").get<std::string>(), number);
  const int64_t x = rule.at("value").get<int64_t>();
  const std::string op = rule.at("op").get<std::string>();
  if (op == "eq") return v == x;
  if (op == "ne") return v != x;
  if (op == "lt") return v < x;
  if (op == "gt") return v > x;
  if (op == "mult") return v % x == 0;
  ADD_FAILURE() << "unknown op " << op;
  return false;
}

// Every number of the puzzle's length that satisfies all its rules.
std::vector<int64_t> TestSolutions(const json& puzzle) {
  const int digits = puzzle.at("digits").get<int>();
  int64_t lo = 1;
  for (int k = 1; k < digits; ++k) lo *= 10;
  std::vector<int64_t> left;
  for (int64_t x = lo; x < 10 * lo; ++x) left.push_back(x);
  for (const json& rule : puzzle.at("rules")) {
    std::vector<int64_t> kept;
    for (int64_t x : left) {
      if (TestHolds(rule, x)) kept.push_back(x);
    }
    left.swap(kept);
  }
  return left;
}

// ---- the seed's example ----

TEST(SecretNumberTest, SeedExampleHasAnswer909) {
  auto d = SN().Verify(SeedPuzzle(), {{"number", 909}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->details["rules"], 2);
  EXPECT_EQ(d->details["useful_rules"], 2);
  EXPECT_TRUE(IsLevel(d->level));
  EXPECT_EQ(TestSolutions(SeedPuzzle()), std::vector<int64_t>{909});
}

TEST(SecretNumberTest, SeedExampleRejectsWrongAnswer) {
  auto d = SN().Verify(SeedPuzzle(), {{"number", 908}});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(d.status().message(), HasSubstr("the solution 908 breaks rule 2"));
}

TEST(SecretNumberTest, SeedExampleTextAndCanonicalBytes) {
  EXPECT_EQ(SN().RenderText(SeedPuzzle()),
            "I am thinking of a 3-digit number (no leading zero).\n"
            "1. The difference of my first two digits is 9.\n"
            "2. The difference of my last two digits is 9.\n"
            "What is my number?");
  EXPECT_EQ(SN().CanonicalBytes(SeedPuzzle()), "3|diff:1,2 eq 9;diff:2,3 eq 9");
  json reordered = {{"digits", 3},
                    {"rules", {Rule("diff:2,3", "eq", 9), Rule("diff:1,2", "eq", 9)}}};
  EXPECT_EQ(SN().CanonicalBytes(reordered), SN().CanonicalBytes(SeedPuzzle()));
  // Text is not part of the identity.
  reordered["rules"][0]["text"] = "anything";
  EXPECT_EQ(SN().CanonicalBytes(reordered), SN().CanonicalBytes(SeedPuzzle()));
}

TEST(SecretNumberTest, FamilyIdentityAndRegistration) {
  EXPECT_EQ(SN().name(), "secret-number");
  EXPECT_EQ(SN().id_prefix(), "sn");
  auto f = FindFamily("secret-number");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, &SN());
}

// ---- rule text ----

TEST(SecretNumberTest, RuleTextReadsAsEnglish) {
  using secret_number::Op;
  using secret_number::SubjectKind;
  const auto text = [](SubjectKind k, int i, int j, Op op, int64_t v, int digits = 3) {
    secret_number::Rule r;
    r.subject = {k, static_cast<uint8_t>(i), static_cast<uint8_t>(j)};
    r.op = op;
    r.value = v;
    return secret_number::RuleText(r, digits);
  };
  EXPECT_EQ(text(SubjectKind::kPairDiff, 1, 2, Op::kEq, 9),
            "The difference of my first two digits is 9.");
  EXPECT_EQ(text(SubjectKind::kDigit, 2, 0, Op::kLt, 5), "My second digit is less than 5.");
  EXPECT_EQ(text(SubjectKind::kSum, 0, 0, Op::kMult, 3),
            "The sum of my digits is a multiple of 3.");
  EXPECT_EQ(text(SubjectKind::kPairProduct, 1, 3, Op::kNe, 12),
            "The product of my first and third digits is not 12.");
  EXPECT_EQ(text(SubjectKind::kNumber, 0, 0, Op::kGt, 450), "My number is greater than 450.");
  EXPECT_EQ(text(SubjectKind::kCountEven, 0, 0, Op::kEq, 2),
            "The number of even digits in my number is 2.");
  EXPECT_EQ(text(SubjectKind::kCountDistinct, 0, 0, Op::kEq, 3),
            "The number of different digits in my number is 3.");
  EXPECT_EQ(text(SubjectKind::kPairSum, 2, 3, Op::kEq, 4, 6),
            "The sum of my second and third digits is 4.");
  EXPECT_EQ(text(SubjectKind::kPairSum, 5, 6, Op::kEq, 4, 6),
            "The sum of my last two digits is 4.");
  EXPECT_EQ(text(SubjectKind::kPairSum, 1, 2, Op::kEq, 4, 2), "The sum of my two digits is 4.");
  EXPECT_EQ(text(SubjectKind::kDigit, 6, 0, Op::kEq, 4, 6), "My sixth digit is 4.");
}

// ---- generation ----

// Every accepted puzzle has exactly one solution (by the brute force above),
// verifies with the same difficulty, and keeps the parameter bounds.
void CheckManySeeds(int digits, int candidates) {
  const Params params = MakeParams({{"digits", std::to_string(digits)}});
  int accepted = 0;
  for (int i = 0; i < candidates; ++i) {
    Candidate c = Gen(params, 1000 + digits, i);
    if (auto* r = std::get_if<Rejected>(&c)) {
      EXPECT_THAT(r->reason, ::testing::AnyOf("too_many_rules", "too_few_rules", "no_rule_fits"));
      continue;
    }
    ++accepted;
    const Accepted& a = std::get<Accepted>(c);
    SCOPED_TRACE(a.puzzle.dump());
    EXPECT_EQ(a.puzzle.at("digits"), digits);
    const size_t rules = a.puzzle.at("rules").size();
    EXPECT_GE(rules, 2u);
    EXPECT_LE(rules, 10u);
    EXPECT_EQ(TestSolutions(a.puzzle),
              std::vector<int64_t>{a.solution.at("number").get<int64_t>()});
    auto d = SN().Verify(a.puzzle, a.solution);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    EXPECT_EQ(d->ToJson(), a.difficulty.ToJson());
    EXPECT_TRUE(IsLevel(a.difficulty.level));
    EXPECT_GE(a.difficulty.score, 0.0);
    EXPECT_LE(a.difficulty.score, 1.0);
    EXPECT_EQ(a.difficulty.details.at("rules"), rules);
  }
  EXPECT_GT(accepted, candidates / 10) << "digits=" << digits;
}

TEST(SecretNumberTest, ManySeedsTwoDigits) { CheckManySeeds(2, 2000); }
TEST(SecretNumberTest, ManySeedsThreeDigits) { CheckManySeeds(3, 2000); }
TEST(SecretNumberTest, ManySeedsFourDigits) { CheckManySeeds(4, 300); }
TEST(SecretNumberTest, ManySeedsFiveDigits) { CheckManySeeds(5, 40); }
TEST(SecretNumberTest, AFewSixDigits) { CheckManySeeds(6, 6); }

TEST(SecretNumberTest, GeneratedTextMatchesRule) {
  const Params params = MakeParams();
  for (int i = 0; i < 200; ++i) {
    Candidate c = Gen(params, 7, i);
    auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    for (const json& rule : a->puzzle.at("rules")) {
      secret_number::Rule r;
      r.subject = *secret_number::ParseSubject(rule.at("subject").get<std::string>(), 3);
      r.op = *secret_number::ParseOp(rule.at("op").get<std::string>());
      r.value = rule.at("value").get<int64_t>();
      EXPECT_EQ(rule.at("text"), secret_number::RuleText(r, 3));
    }
  }
}

TEST(SecretNumberTest, SameSeedSameCandidate) {
  for (int digits : {2, 3, 4}) {
    const Params params = MakeParams({{"digits", std::to_string(digits)}});
    for (int i = 0; i < 50; ++i) {
      Candidate a = Gen(params, 99, i);
      Candidate b = Gen(params, 99, i);
      ASSERT_EQ(a.index(), b.index());
      if (auto* x = std::get_if<Accepted>(&a)) {
        const auto& y = std::get<Accepted>(b);
        EXPECT_EQ(x->puzzle.dump(), y.puzzle.dump());
        EXPECT_EQ(x->solution.dump(), y.solution.dump());
        EXPECT_EQ(x->difficulty.ToJson(), y.difficulty.ToJson());
      } else {
        EXPECT_EQ(std::get<Rejected>(a).reason, std::get<Rejected>(b).reason);
      }
    }
  }
}

TEST(SecretNumberTest, ConcurrentGenerationMatchesSerial) {
  const Params params = MakeParams({{"digits", "2"}});
  std::vector<std::string> serial(400), parallel(400);
  const auto run = [&](std::vector<std::string>& out, int from, int step) {
    for (int i = from; i < static_cast<int>(out.size()); i += step) {
      Candidate c = Gen(params, 5, i);
      auto* a = std::get_if<Accepted>(&c);
      out[i] = a ? a->puzzle.dump() : std::get<Rejected>(c).reason;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { run(parallel, t, 4); });
  for (auto& t : threads) t.join();
  run(serial, 0, 1);
  EXPECT_EQ(serial, parallel);
}

TEST(SecretNumberTest, EverySubjectAndOpAppears) {
  const Params params = MakeParams();
  std::set<std::string> subjects, ops, levels;
  for (int i = 0; i < 3000; ++i) {
    Candidate c = Gen(params, 3, i);
    auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    levels.insert(a->difficulty.level);
    for (const json& rule : a->puzzle.at("rules")) {
      subjects.insert(rule.at("subject").get<std::string>());
      const std::string op = rule.at("op").get<std::string>();
      ops.insert(op);
      if (op == "mult") {
        EXPECT_GE(rule.at("value").get<int64_t>(), 2);
        EXPECT_LE(rule.at("value").get<int64_t>(), 9);
      }
    }
  }
  EXPECT_EQ(subjects, (std::set<std::string>{
                          "digit:1", "digit:2", "digit:3", "sum", "product", "sum:1,2", "sum:1,3",
                          "sum:2,3", "diff:1,2", "diff:1,3", "diff:2,3", "product:1,2",
                          "product:1,3", "product:2,3", "number", "count_even", "count_distinct"}));
  EXPECT_EQ(ops, (std::set<std::string>{"eq", "ne", "lt", "gt", "mult"}));
  EXPECT_EQ(levels.size(), 4u) << "the levels should all be reachable with default params";
}

TEST(SecretNumberTest, WithoutRedundantRulesEveryRuleIsUseful) {
  const Params params = MakeParams({{"allow_redundant", "false"}});
  int accepted = 0;
  for (int i = 0; i < 500; ++i) {
    Candidate c = Gen(params, 11, i);
    auto* a = std::get_if<Accepted>(&c);
    if (a == nullptr) continue;
    ++accepted;
    EXPECT_EQ(a->difficulty.details.at("useful_rules"), a->difficulty.details.at("rules"));
  }
  EXPECT_GT(accepted, 50);
}

TEST(SecretNumberTest, MaxRulesOneRejectsMostAsTooManyRules) {
  const Params params = MakeParams({{"max_rules", "1"}, {"min_rules", "1"}});
  int too_many = 0;
  for (int i = 0; i < 1000; ++i) {
    Candidate c = Gen(params, 13, i);
    if (auto* r = std::get_if<Rejected>(&c); r && r->reason == "too_many_rules") ++too_many;
    if (auto* a = std::get_if<Accepted>(&c)) {
      EXPECT_EQ(a->puzzle.at("rules").size(), 1u);
    }
  }
  EXPECT_GT(too_many, 900);
}

TEST(SecretNumberTest, HighMinRulesRejectsAsTooFewRules) {
  const Params params = MakeParams({{"min_rules", "30"}, {"max_rules", "30"}});
  int too_few = 0;
  for (int i = 0; i < 200; ++i) {
    Candidate c = Gen(params, 17, i);
    if (auto* r = std::get_if<Rejected>(&c); r && r->reason == "too_few_rules") ++too_few;
  }
  EXPECT_GT(too_few, 150);
}

// ---- params ----

TEST(SecretNumberTest, ParamsDefaults) {
  const Params p = MakeParams();
  EXPECT_EQ(p.json(),
            (json{{"allow_redundant", true}, {"digits", 3}, {"max_rules", 10}, {"min_rules", 2}}));
}

TEST(SecretNumberTest, DigitsOutOfRangeNamesKeyAndRange) {
  auto p = SN().MakeParams(std::map<std::string, std::string>{{"digits", "7"}});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(p.status().message(), HasSubstr("'digits'"));
  EXPECT_THAT(p.status().message(), HasSubstr("2..6"));
}

TEST(SecretNumberTest, MinRulesAboveMaxRulesRejected) {
  auto p =
      SN().MakeParams(std::map<std::string, std::string>{{"min_rules", "5"}, {"max_rules", "3"}});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(p.status().message(), HasSubstr("min_rules"));
  EXPECT_THAT(p.status().message(), HasSubstr("max_rules"));
  auto j = SN().MakeParams(json{{"min_rules", 4}, {"max_rules", 3}});
  EXPECT_FALSE(j.ok());
}

// ---- verify: malformed and wrong puzzles ----

void ExpectInvalid(const json& puzzle, const json& solution, const std::string& fragment) {
  testing::ExpectVerifyRefuses(SN(), puzzle, solution, fragment);
}

TEST(SecretNumberTest, VerifyRejectsMalformedShapes) {
  const json ok_solution = {{"number", 909}};
  ExpectInvalid(json::array(), ok_solution, "object");
  ExpectInvalid({{"digits", 3}}, ok_solution, "rules");
  ExpectInvalid({{"digits", 3}, {"rules", 5}}, ok_solution, "rules");
  ExpectInvalid({{"rules", json::array()}}, ok_solution, "digits");
  ExpectInvalid({{"digits", 7}, {"rules", json::array()}}, ok_solution, "2..6");
  ExpectInvalid({{"digits", "3"}, {"rules", json::array()}}, ok_solution, "digits");
  ExpectInvalid({{"digits", 3}, {"rules", json::array()}, {"extra", 1}}, ok_solution, "extra");
  const auto one = [](json rule) { return json{{"digits", 3}, {"rules", {std::move(rule)}}}; };
  ExpectInvalid(one(Rule("square", "eq", 4)), ok_solution, "unknown subject 'square'");
  ExpectInvalid(one(Rule("digit:4", "eq", 4)), ok_solution, "digit:4");
  ExpectInvalid(one(Rule("digit:0", "eq", 4)), ok_solution, "1..3");
  ExpectInvalid(one(Rule("diff:3,2", "eq", 4)), ok_solution, "I < J");
  ExpectInvalid(one(Rule("sum:1,4", "eq", 4)), ok_solution, "sum:1,4");
  ExpectInvalid(one(Rule("digit", "eq", 4)), ok_solution, "positions");
  ExpectInvalid(one(Rule("sum", "le", 4)), ok_solution, "unknown op 'le'");
  ExpectInvalid(one(Rule("sum", "mult", 0)), ok_solution, "at least 2");
  ExpectInvalid(one(Rule("sum", "mult", 1)), ok_solution, "at least 2");
  ExpectInvalid(one({{"subject", "sum"}, {"op", "eq"}, {"value", 4.5}}), ok_solution, "integer");
  ExpectInvalid(one({{"subject", "sum"}, {"op", "eq"}}), ok_solution, "integer");
  ExpectInvalid(one({{"subject", "sum"}, {"value", 4}}), ok_solution, "'op'");
  ExpectInvalid(one({{"op", "eq"}, {"value", 4}}), ok_solution, "'subject'");
  ExpectInvalid(one({{"subject", "sum"}, {"op", "eq"}, {"value", 4}, {"text", 5}}), ok_solution,
                "'text'");
  ExpectInvalid(one({{"subject", "sum"}, {"op", "eq"}, {"value", 4}, {"why", 5}}), ok_solution,
                "why");
  ExpectInvalid(one(json::array()), ok_solution, "rule 1");
  ExpectInvalid(SeedPuzzle(), json{{"number", "909"}}, "solution");
  ExpectInvalid(SeedPuzzle(), json{{"number", 90}}, "3-digit");
  ExpectInvalid(SeedPuzzle(), json{{"number", 909}, {"extra", 1}}, "solution");
  json many = {{"digits", 3}, {"rules", json::array()}};
  for (int k = 0; k < 31; ++k) many["rules"].push_back(Rule("sum", "ne", 100));
  ExpectInvalid(many, ok_solution, "at most 30");
}

TEST(SecretNumberTest, VerifyReportsAmbiguousAndImpossiblePuzzles) {
  auto d = SN().Verify({{"digits", 3}, {"rules", {Rule("digit:1", "eq", 9)}}}, {{"number", 909}});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(d.status().message(), HasSubstr("100 numbers satisfy"));

  d = SN().Verify({{"digits", 3}, {"rules", {Rule("digit:1", "eq", 9), Rule("digit:1", "eq", 8)}}},
                  {{"number", 909}});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(d.status().message(), HasSubstr("no number satisfies"));

  d = SN().Verify({{"digits", 2}, {"rules", json::array()}}, {{"number", 10}});
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("90 numbers satisfy"));
}

TEST(SecretNumberTest, VerifyAcceptsOptionalTextAndEverySubjectKind) {
  // Rules of several kinds, checked against the test's own brute force too.
  json puzzle = {{"digits", 2},
                 {"rules",
                  {Rule("count_distinct", "eq", 1), Rule("product", "gt", 40),
                   Rule("sum:1,2", "mult", 4), Rule("count_even", "eq", 2)}}};
  puzzle["rules"][0]["text"] = "free text is allowed";
  EXPECT_EQ(TestSolutions(puzzle), std::vector<int64_t>{88});
  auto d = SN().Verify(puzzle, {{"number", 88}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->details["rules"], 4);
}

// Verify walks the numbers in chunks of 256 and each rule over a chunk;
// random rule sets of every subject and op, on lengths whose last chunk is
// partial (90, 900 and 9,000 numbers), must give the verdict of the test's
// own brute force: unique, none, or how many.
TEST(SecretNumberTest, VerifyAgreesWithBruteForceOnRandomRules) {
  std::mt19937_64 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::vector<std::string> ops = {"eq", "ne", "lt", "gt", "mult"};
  int unique = 0, none = 0, many = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int digits = 2 + trial % 3;
    json puzzle = {{"digits", digits}, {"rules", json::array()}};
    const int rules = 1 + pick(8);
    for (int r = 0; r < rules; ++r) {
      const int i = 1 + pick(digits - 1);
      const int j = i + 1 + pick(digits - i);
      const std::string subject =
          std::vector<std::string>{"digit:" + std::to_string(1 + pick(digits)),
                                   "sum",
                                   "product",
                                   fmt::format("sum:{},{}", i, j),
                                   fmt::format("diff:{},{}", i, j),
                                   fmt::format("product:{},{}", i, j),
                                   "number",
                                   "count_even",
                                   "count_distinct"}[pick(9)];
      const std::string op = ops[pick(5)];
      int64_t value =
          subject == "number" ? pick(9 * static_cast<int>(std::pow(10, digits - 1))) : pick(20);
      if (op == "mult") value = 2 + pick(5);
      puzzle["rules"].push_back(Rule(subject, op, value));
    }
    SCOPED_TRACE(puzzle.dump());
    const std::vector<int64_t> solutions = TestSolutions(puzzle);
    // The first solution as the answer, or a number of the length when none.
    const int64_t answer =
        solutions.empty() ? static_cast<int64_t>(std::pow(10, digits - 1)) : solutions.front();
    auto d = SN().Verify(puzzle, {{"number", answer}});
    if (solutions.size() == 1) {
      ++unique;
      EXPECT_TRUE(d.ok()) << d.status().ToString();
    } else if (solutions.empty()) {
      ++none;
      ASSERT_FALSE(d.ok());
      EXPECT_THAT(d.status().message(), HasSubstr("no number satisfies"));
    } else {
      ++many;
      ASSERT_FALSE(d.ok());
      EXPECT_THAT(d.status().message(),
                  HasSubstr(fmt::format("{} numbers satisfy all", solutions.size())));
    }
  }
  // Each verdict came up often enough to mean something.
  EXPECT_GT(unique, 5) << unique;
  EXPECT_GT(none, 50);
  EXPECT_GT(many, 50);
}

}  // namespace
}  // namespace foundry::puzzles
