#include "cli/progress.h"

#include <unistd.h>

#include <fmt/format.h>

#include "proto/state_names.h"

namespace foundry::cli {

std::string Grouped(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

namespace {

std::string Eta(double seconds) {
  if (seconds < 0 || seconds > 1e7) return "--";
  const auto s = static_cast<uint64_t>(seconds + 0.5);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

}  // namespace

std::string StateName(foundry::v1::CampaignState s) { return CampaignStateName(s); }

Progress::Progress(std::FILE* out)
    : out_(out),
      tty_(isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

void Progress::Update(const foundry::v1::Campaign& c) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const uint64_t stored = c.counters().stored();
  const uint64_t count = c.spec().count();
  double rate = c.rate_per_second();
  if (rate <= 0 && elapsed > 0) rate = static_cast<double>(stored) / elapsed;
  const double eta = rate > 0 ? static_cast<double>(count - stored) / rate : -1;
  const double ratio = count ? static_cast<double>(stored) / static_cast<double>(count) : 0;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(ratio * kWidth);
  std::string line = fmt::format("[{}{}] {:5.1f}%  {}/{}  {:.0f}/s  ETA {}",
                                 std::string(static_cast<size_t>(filled), '#'),
                                 std::string(static_cast<size_t>(kWidth - filled), '.'),
                                 ratio * 100, Grouped(stored), Grouped(count), rate, Eta(eta));
  // A running campaign's message says why it waits (a full disk).
  if (c.state() == foundry::v1::CAMPAIGN_STATE_RUNNING && !c.message().empty()) {
    line += "  " + c.message();
  }
  if (tty_) {
    fmt::print(out_, "\r{}\x1b[K", line);
    drawn_ = true;
  } else if (now - last_print_ >= std::chrono::seconds(2) ||
             c.state() != foundry::v1::CAMPAIGN_STATE_RUNNING) {
    // ... and always the last state, so that a log ends with the final count
    fmt::print(out_, "{}\n", line);
    last_print_ = now;
  }
  std::fflush(out_);
}

void Progress::Finish() {
  if (tty_ && drawn_) fmt::print(out_, "\n");
  std::fflush(out_);
}

double CampaignSeconds(const foundry::v1::Campaign& c, double fallback) {
  if (c.finished_unix_ms() > c.created_unix_ms()) {
    return static_cast<double>(c.finished_unix_ms() - c.created_unix_ms()) / 1000.0;
  }
  return fallback;
}

std::string CampaignSummary(const foundry::v1::Campaign& c, double fallback_seconds) {
  const double seconds = CampaignSeconds(c, fallback_seconds);
  const auto& k = c.counters();
  const double rate = seconds > 0 ? static_cast<double>(k.stored()) / seconds : 0;
  std::string s = fmt::format(
      "campaign {} {}: candidates {}, accepted {}, duplicates {}, stored {}, rate {:.0f} puzzles/s "
      "({:.1f} s)",
      c.id(), StateName(c.state()), Grouped(k.candidates()), Grouped(k.accepted()),
      Grouped(k.duplicates()), Grouped(k.stored()), rate, seconds);
  if (k.invalid() > 0) s += fmt::format(", INVALID {}", k.invalid());
  if (c.state() != foundry::v1::CAMPAIGN_STATE_DONE && !c.message().empty()) {
    s += "\n" + c.message();
  }
  return s;
}

void ReportCampaignEnd(const foundry::v1::Campaign& c, double seconds) {
  foundry::v1::Campaign summary = c;
  summary.clear_message();
  fmt::print("{}\n", CampaignSummary(summary, seconds));
  std::fflush(stdout);
  if (c.state() != foundry::v1::CAMPAIGN_STATE_DONE && !c.message().empty()) {
    fmt::print(stderr, "foundry: {}\n", c.message());
  }
}

}  // namespace foundry::cli
