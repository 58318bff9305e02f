#include "common/number_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace foundry {
namespace {

// The transform for one option; `is_unsigned` picks the 64-bit range.
CLI::Validator Decimal(bool is_unsigned) {
  return CLI::Validator(
      [is_unsigned](std::string& value) -> std::string {
        // strtoull skips leading blanks, and reads " -5" as 2^64 - 5 too.
        const size_t from = value.find_first_not_of(" \t");
        value.erase(0, std::min(from, value.size()));
        // CLI11 would leave the option at its default ("--seed $UNSET").
        if (value.empty()) return "expects a number, got an empty value";
        const size_t sign = (value[0] == '-' || value[0] == '+') ? 1 : 0;
        const std::string_view digits = std::string_view(value).substr(sign);
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(),
                                           [](char c) { return c >= '0' && c <= '9'; })) {
          return "";  // not a plain decimal number: CLI11's own reading and checks
        }
        const size_t first = std::min(digits.find_first_not_of('0'), digits.size() - 1);
        const std::string_view kept = digits.substr(first);
        uint64_t magnitude = 0;
        const auto [end, ec] = std::from_chars(kept.data(), kept.data() + kept.size(), magnitude);
        const bool negative = sign == 1 && value[0] == '-';
        if (negative && is_unsigned) return fmt::format("must be 0 or more, got '{}'", value);
        const uint64_t most = is_unsigned ? UINT64_MAX : negative ? uint64_t{1} << 63 : INT64_MAX;
        const bool fits = ec == std::errc() && magnitude <= most;
        if (!fits) {
          return is_unsigned ? fmt::format("must be at most {}, got '{}'", UINT64_MAX, value)
                             : fmt::format("must be {}..{}, got '{}'", INT64_MIN, INT64_MAX, value);
        }
        value = (negative ? "-" : "") + std::string(kept);
        return "";
      },
      "", "DECIMAL");
}

// The transform for a floating option: a finite number, or CLI11's error.
CLI::Validator Finite() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty()) return "expects a number, got an empty value";
        char* end = nullptr;
        const double x = std::strtod(value.c_str(), &end);
        if (end == value.c_str() + value.size() && !std::isfinite(x)) {
          return fmt::format("must be a finite number, got '{}'", value);
        }
        return "";  // finite, or not a number at all: CLI11 says so
      },
      "", "FINITE");
}

}  // namespace

void StrictNumberOptions(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    if (type.starts_with("UINT")) {
      option->transform(Decimal(/*is_unsigned=*/true));
    } else if (type.starts_with("INT")) {
      option->transform(Decimal(/*is_unsigned=*/false));
    } else if (type.starts_with("FLOAT")) {
      option->transform(Finite());
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) StrictNumberOptions(*sub);
}

}  // namespace foundry
