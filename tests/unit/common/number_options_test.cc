// Number options read as users write them (common/number_options.h):
// CLI11 alone reads "010" as octal 8, a number past 64 bits as the largest
// value, and "nan" through every range check.
#include "common/number_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

namespace foundry {
namespace {

struct Parsed {
  uint64_t seed = 1;
  int64_t count = 0;
  int threads = 1;
  std::vector<int> sizes;
  std::string name;
  double seconds = 1;
  std::optional<double> score;
  std::string error;  // CLI11's message, empty when parsing succeeded
};

Parsed Parse(std::vector<std::string> args) {
  Parsed p;
  CLI::App app;
  CLI::App* run = app.add_subcommand("run");
  run->add_option("--seed", p.seed);
  run->add_option("--count", p.count);
  run->add_option("--threads", p.threads)->check(CLI::Range(1, 1024));
  run->add_option("--size", p.sizes);
  run->add_option("--name", p.name);
  run->add_option("--seconds", p.seconds)->check(CLI::Range(0.2, 3600.0));
  run->add_option("--score", p.score);
  StrictNumberOptions(app);
  args.insert(args.begin(), "run");
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    p.error = e.what();
  }
  return p;
}

TEST(NumberOptions, LeadingZerosAreDecimalNotOctal) {
  const Parsed p = Parse({"--seed", "010", "--count", "-0012", "--threads", "0008", "--size", "09",
                          "--size", "0", "--name", "007"});
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.seed, 10u);
  EXPECT_EQ(p.count, -12);
  EXPECT_EQ(p.threads, 8);  // "0008" is not even octal
  EXPECT_EQ(p.sizes, (std::vector<int>{9, 0}));
  EXPECT_EQ(p.name, "007") << "text options are left alone";
}

TEST(NumberOptions, TheOptionsOwnChecksSeeTheDecimalValue) {
  // Octal 02000 is 1024, inside the range; decimal 2000 is not.
  EXPECT_NE(Parse({"--threads", "02000"}).error, "");
  EXPECT_EQ(Parse({"--threads", "01024"}).threads, 1024);
}

TEST(NumberOptions, NumbersPast64BitsAndNegativeUnsignedOnesAreRefusedByName) {
  EXPECT_EQ(Parse({"--seed", "18446744073709551615"}).seed, UINT64_MAX);
  EXPECT_NE(Parse({"--seed", "18446744073709551616"})
                .error.find("must be at most 18446744073709551615, got '18446744073709551616'"),
            std::string::npos);
  EXPECT_NE(Parse({"--seed", "-5"}).error.find("must be 0 or more, got '-5'"), std::string::npos);
  EXPECT_NE(Parse({"--seed", " -5"}).error.find("must be 0 or more"), std::string::npos)
      << "strtoull skips the blank and wraps";
  EXPECT_EQ(Parse({"--seed", " 7"}).seed, 7u);
  EXPECT_EQ(Parse({"--count", "-9223372036854775808"}).count, INT64_MIN);
  EXPECT_NE(Parse({"--count", "9223372036854775808"}).error.find("got '9223372036854775808'"),
            std::string::npos);
}

TEST(NumberOptions, HexIsCliElevensToReadAndAnEmptyValueIsRefused) {
  EXPECT_EQ(Parse({"--seed", "0x10"}).seed, 16u);
  EXPECT_NE(Parse({"--seed", "ten"}).error, "");
  // An empty value left the default in place ("--seed $UNSET").
  EXPECT_NE(Parse({"--seed", ""}).error.find("expects a number, got an empty value"),
            std::string::npos);
}

TEST(NumberOptions, FloatingOptionsRefuseNanAndInfinity) {
  // "nan" compares false with both ends of a range, so Range let it through.
  EXPECT_NE(Parse({"--seconds", "nan"}).error.find("--seconds: must be a finite number, got 'nan'"),
            std::string::npos);
  EXPECT_NE(Parse({"--score", "-inf"}).error.find("must be a finite number, got '-inf'"),
            std::string::npos);
  EXPECT_NE(Parse({"--score", "NaN"}).error, "");
  EXPECT_NE(Parse({"--seconds", ""}).error.find("expects a number, got an empty value"),
            std::string::npos);
  const Parsed p = Parse({"--seconds", "2.5e1", "--score", "0.25"});
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.seconds, 25);
  EXPECT_EQ(p.score, 0.25);
  EXPECT_NE(Parse({"--seconds", "0.1"}).error, "") << "the option's own range still applies";
}

}  // namespace
}  // namespace foundry
