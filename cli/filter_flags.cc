#include "cli/filter_flags.h"

#include <charconv>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "puzzles/family.h"
#include "puzzles/registry.h"

namespace foundry::cli {

void AddFilterFlags(CLI::App& cmd, FilterFlags& f) {
  cmd.add_option("--family", f.family, "Only this family");
  cmd.add_option("--level", f.level, "Only this level (easy|medium|hard|expert; needs --family)");
  cmd.add_option("--campaign", f.campaign, "Only puzzles this campaign stored");
  cmd.add_option("--min-score", f.min_score, "Difficulty score at least this (0..1)");
  cmd.add_option("--max-score", f.max_score, "Difficulty score at most this (0..1)");
  cmd.add_flag("--observed", f.observed,
               "Apply the score range to the observed difficulty (players' results) instead");
  cmd.add_option("--created-after", f.created_after,
                 "Stored at or after: ms since 1970 or a UTC date[Thh:mm:ss]");
  cmd.add_option("--created-before", f.created_before, "Stored before (same forms)");
}

std::optional<int64_t> ParseTime(const std::string& text) {
  if (text.empty()) return std::nullopt;
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (ec == std::errc() && end == text.data() + text.size()) {
    return ms >= 0 ? std::optional<int64_t>(ms) : std::nullopt;
  }
  std::tm tm{};
  std::string t = text;
  if (!t.empty() && t.back() == 'Z') t.pop_back();
  const char* rest = strptime(t.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == nullptr || *rest != '\0') {
    tm = std::tm{};
    rest = strptime(t.c_str(), "%Y-%m-%d", &tm);
    if (rest == nullptr || *rest != '\0') return std::nullopt;
  }
  // strptime takes any day 1..31 of any month and timegm rolls it over:
  // 2026-02-30 would be 2026-03-02.
  const std::chrono::year_month_day day{std::chrono::year{tm.tm_year + 1900},
                                        std::chrono::month{static_cast<unsigned>(tm.tm_mon + 1)},
                                        std::chrono::day{static_cast<unsigned>(tm.tm_mday)}};
  if (!day.ok()) return std::nullopt;
  const time_t seconds = timegm(&tm);
  if (seconds < 0) return std::nullopt;
  return static_cast<int64_t>(seconds) * 1000;
}

Result<foundry::v1::PuzzleFilter> ToFilter(const FilterFlags& f) {
  if (!f.family.empty()) {
    if (auto family = puzzles::FindFamily(f.family); !family.ok()) {
      return Status::InvalidArgument(family.status().message());
    }
  }
  if (!f.level.empty() && !puzzles::IsLevel(f.level)) {
    return Status::InvalidArgument(
        fmt::format("--level must be easy|medium|hard|expert, got '{}'", f.level));
  }
  if (!f.level.empty() && f.family.empty())
    return Status::InvalidArgument("--level needs --family");
  foundry::v1::PuzzleFilter out;
  out.set_family(f.family);
  out.set_level(f.level);
  out.set_campaign_id(f.campaign);
  if (f.min_score || f.max_score) {
    const double lo = f.min_score.value_or(0), hi = f.max_score.value_or(1);
    if (!(lo >= 0 && lo <= hi && hi <= 1)) {
      return Status::InvalidArgument(
          fmt::format("need 0 <= --min-score <= --max-score <= 1, got {}..{}", lo, hi));
    }
    out.set_has_score_range(true);
    out.set_min_score(lo);
    out.set_max_score(hi);
  }
  if (f.observed) {
    if (!out.has_score_range()) {
      return Status::InvalidArgument("--observed needs --min-score and/or --max-score");
    }
    out.set_use_observed(true);
  }
  for (const auto& [text, flag, setter] :
       {std::tuple{&f.created_after, "--created-after",
                   &foundry::v1::PuzzleFilter::set_created_after_unix_ms},
        std::tuple{&f.created_before, "--created-before",
                   &foundry::v1::PuzzleFilter::set_created_before_unix_ms}}) {
    if (text->empty()) continue;
    std::optional<int64_t> ms = ParseTime(*text);
    if (!ms) {
      return Status::InvalidArgument(fmt::format(
          "{} must be ms since 1970 or a UTC date like 2026-11-22 or 2026-11-22T10:30:00, got '{}'",
          flag, *text));
    }
    (out.*setter)(*ms);
  }
  return out;
}

}  // namespace foundry::cli
